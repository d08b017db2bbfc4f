// The server-free checks of `m3 tasks verify` on small hand-made suites: every rule reports
// a message naming what is wrong, and a consistent suite reports nothing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fuzzyTaskSchema, gtTaskSchema } from '../../src/tasks/schemas.js';
import { checkSuiteStatic, findToolMentions, loadSuite, selectIds, type LoadedSuite, type ToolVocabulary } from '../../src/tasks/verify-static.js';

const root = mkdtempSync(path.join(tmpdir(), 'm3-verify-static-'));
mkdirSync(path.join(root, 'media', 'local'), { recursive: true });
writeFileSync(path.join(root, 'media', 'local', 'label.png'), 'not checked here');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const vocabulary: ToolVocabulary = {
  servers: ['pyzbar-mcp', 'math', 'ocr'],
  tools: [
    { server: 'pyzbar-mcp', tool: 'scan_barcode' },
    { server: 'math', tool: 'sum' },
    { server: 'math', tool: 'radiansToDegrees' },
    { server: 'ocr', tool: 'perform_ocr' },
  ],
};

function gtRecord(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'T1',
    image: 'media/local/label.png',
    type: 'barcode',
    tier: 'chain',
    question: 'Scan ./media/local/label.png with pyzbar-mcp/scan_barcode, then add with math/sum.',
    steps: [
      { step: 1, calls: [{ name: 'pyzbar-mcp/scan_barcode', arguments: { image_paths: './media/local/missing.png' }, expect_error: true }] },
      {
        step: 2,
        calls: [
          { name: 'pyzbar-mcp/scan_barcode', arguments: { image_paths: './media/local/label.png' } },
          { name: 'math/sum', arguments: { numbers: [1, 2] } },
        ],
      },
    ],
    final_reply: 'The first path was missing; the label says ABC-1 and the sum is 3.',
    facts: [
      { step: 1, call: 0, expectError: true },
      { step: 2, call: 0, path: 'results[0].codes[*].text', includes: 'ABC-1', reply: 'ABC-1' },
      { step: 2, call: 1, number: 3, reply: 'sum is 3' },
    ],
    ...overrides,
  };
}

function fuzzyRecord(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'T1',
    image: 'media/local/label.png',
    type: 'barcode',
    tier: 'chain',
    prompt: 'Scan ./media/local/label.png with pyzbar-mcp/scan_barcode, then add with math/sum.',
    question: 'What does this label say, and what do its numbers add up to?',
    ...overrides,
  };
}

function suiteOf(gt: Array<Record<string, unknown>>, tasks: Array<Record<string, unknown>>): LoadedSuite {
  return {
    gtFile: 'gt.json',
    tasksFile: 'tasks.json',
    gt: gt.map((record) => gtTaskSchema.parse(record)),
    tasks: tasks.map((record) => fuzzyTaskSchema.parse(record)),
  };
}

function problemsOf(gt: Record<string, unknown>, fuzzy: Record<string, unknown>): string[] {
  return checkSuiteStatic(suiteOf([gt], [fuzzy]), { root, vocabulary }).taskProblems.get('T1') ?? [];
}

describe('checkSuiteStatic', () => {
  it('finds nothing wrong in a consistent task', () => {
    const findings = checkSuiteStatic(suiteOf([gtRecord()], [fuzzyRecord()]), { root, vocabulary });
    expect(findings.suiteProblems).toEqual([]);
    expect(findings.taskProblems.get('T1')).toEqual([]);
  });

  it('reports ids that are in one file only, and duplicates', () => {
    const findings = checkSuiteStatic(suiteOf([gtRecord(), gtRecord({ id: 'T2' }), gtRecord({ id: 'T2' })], [fuzzyRecord(), fuzzyRecord({ id: 'T3' })]), {
      root,
      vocabulary,
    });
    expect(findings.suiteProblems).toEqual(['gt.json: duplicate ids T2', 'ids only in tasks.json: T3', 'ids only in gt.json: T2']);
    expect(findings.taskProblems.get('T2')?.[0]).toBe('is in gt.json but not in tasks.json: the two files must list the same ids');
    expect(findings.taskProblems.get('T3')).toEqual(['is in tasks.json but not in gt.json: the two files must list the same ids']);
  });

  it('reports disagreeing tiers, types, images and prompts', () => {
    const problems = problemsOf(
      gtRecord({ tier: 'basic' }),
      fuzzyRecord({ type: 'ocr', image: ['media/local/label.png', 'media/local/label.png'], prompt: 'Something else.' }),
    );
    expect(problems).toEqual([
      'tier differs: GT "basic", tasks file "chain"',
      'type differs: GT "barcode", tasks file "ocr"',
      'image differs: GT "media/local/label.png", tasks file ["media/local/label.png","media/local/label.png"]',
      'GT "question" must equal the tasks file "prompt" (both are the explicit instruction)',
    ]);
    expect(problemsOf(gtRecord({ tier: undefined }), fuzzyRecord({ tier: undefined }))).toEqual([
      'GT record has no "tier" (basic, chain, parallel, conditional or exception)',
    ]);
  });

  it('rejects fuzzy questions that give the tools away', () => {
    expect(problemsOf(gtRecord(), fuzzyRecord({ question: 'Use scan_barcode on it, then sum the digits.' }))).toEqual([
      'fuzzy question names "scan_barcode": rephrase it as a user would, without tool or server names',
    ]);
    expect(findToolMentions('Ask the OCR server, or the MCP tool math/sum.', vocabulary)).toEqual(['math/sum', 'math', 'ocr', 'MCP']);
    expect(findToolMentions('Convert with radiansToDegrees', vocabulary)).toEqual(['radiansToDegrees']);
    // Plain English words that happen to be tool names are fine.
    expect(findToolMentions('Please sum the prices, then do some mathematics.', vocabulary)).toEqual([]);
  });

  it('names missing images with the command that brings them back', () => {
    const problems = problemsOf(
      gtRecord({ image: ['media/assets/images/detection/dog.jpg', 'media/local/gone.png'] }),
      fuzzyRecord({ image: ['media/assets/images/detection/dog.jpg', 'media/local/gone.png'] }),
    );
    expect(problems).toEqual([
      'image media/assets/images/detection/dog.jpg not found: run `m3 assets pull` (with M3_ASSET_MIRROR set when offline) to fetch the shared photos',
      'image media/local/gone.png not found: regenerate the local media with `npx tsx tools/generate-local-media.ts`',
    ]);
  });

  it('checks that facts point at real calls, match expect_error marks and appear in the final reply', () => {
    const base = gtRecord();
    const facts = [
      { step: 3, call: 0, equals: 1, reply: 'sum is 3' },
      { step: 2, call: 0, expectError: true },
      { step: 2, call: 1, number: 3, reply: 'the total is three' },
    ];
    expect(problemsOf({ ...base, facts }, fuzzyRecord())).toEqual([
      'fact 1 (step 3 call 0 equals 1): there is no call 0 in step 3 (the task has 2 step(s))',
      'fact 2 (step 2 call 0 expectError): expects the call to fail, but the call is not marked "expect_error": true',
      'fact 3 (step 2 call 1 number 3): final_reply does not contain its reply text "the total is three"',
    ]);
    expect(problemsOf({ ...base, facts: [] }, fuzzyRecord())).toEqual(['has no facts: add at least one fact backing final_reply']);
  });

  it('checks call names and argument shapes', () => {
    const steps = [{ step: 1, calls: [{ name: 'scan_barcode', arguments: ['x'] }] }];
    expect(problemsOf(gtRecord({ steps, facts: [{ step: 1, call: 0, equals: 1, reply: 'ABC-1' }] }), fuzzyRecord())).toEqual([
      'step 1 call 0: name "scan_barcode" is not a canonical "server/tool" name',
      'step 1 call 0: arguments must be a JSON object',
    ]);
  });
});

describe('loading and selecting', () => {
  it('rejects a GT file whose facts break the fact schema, naming the file and the field', () => {
    const file = path.join(root, 'bad-gt.json');
    writeFileSync(file, JSON.stringify([gtRecord({ facts: [{ step: 1, call: 0, equals: 1 }] })]));
    writeFileSync(path.join(root, 'tasks.json'), JSON.stringify([fuzzyRecord()]));
    expect(() => loadSuite(file, path.join(root, 'tasks.json'))).toThrow(/bad-gt\.json: at \$\[0\]\.facts\[0\]: a fact needs "reply"/);
  });

  it('selects ids with --only and refuses unknown ones', () => {
    const suite = suiteOf([gtRecord(), gtRecord({ id: 'T2' })], [fuzzyRecord(), fuzzyRecord({ id: 'T2' })]);
    expect(selectIds(suite, undefined)).toEqual(['T1', 'T2']);
    expect(selectIds(suite, ['T2'])).toEqual(['T2']);
    expect(() => selectIds(suite, ['T2', 'T9'])).toThrow('--only: unknown task id(s) T9 (not in gt.json or tasks.json)');
  });
});
