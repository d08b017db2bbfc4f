// `m3 tools classify` through the real SDKs against the wire-level mock LLM: the label set and
// the wrapped-answer format reach the model, answers that are not a wrapped allowed category
// are asked again (3 attempts), labels land in the reference layout and are kept (not asked
// again) on the next pass, other keys survive, and `m3 report`'s category donut counts them;
// the command itself as a child process (Gemini wire) prints the counts and its exit status.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadToolCatalog } from '../../../src/eval/call/catalog.js';
import { classifyCatalogTools, parseCategory, TOOL_CATEGORIES } from '../../../src/eval/call/tool-categories.js';
import { createDriver } from '../../../src/llm/registry.js';
import { loadReportCatalog } from '../../../src/report/catalog-categories.js';
import { toolCategoryFigure } from '../../../src/report/chart-configs.js';
import { startMockLlm, type MockLlm, type RecordedRequest } from '../../support/mock-llm/index.js';
import { runM3InProcess } from '../../support/m3-in-process.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-classify-'));
let mock: MockLlm;
const retryPolicy = { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 60_000 };

/** Weather is answered right away, OCR first with prose then wrapped, the wiki tool never usefully. */
function answer(request: RecordedRequest) {
  const body = JSON.stringify(request.body);
  if (body.includes('Tool: weather.get_weather')) return { text: '<<BBOX>>Weather & Air Quality<</BBOX>>' };
  if (body.includes('Tool: ocr.perform_ocr')) {
    const earlier = mock.generations().filter((item) => JSON.stringify(item.body).includes('Tool: ocr.perform_ocr')).length;
    return { text: earlier <= 1 ? 'It reads text from images, so Computer Vision.' : '<<BBOX>> Computer Vision <</BBOX>>' };
  }
  if (body.includes('Tool: wiki.search')) return { text: '<<BBOX>>Encyclopedia<</BBOX>>' };
  return undefined;
}

beforeAll(async () => {
  mock = await startMockLlm({ respond: answer, fallback: { text: '<<BBOX>>Health<</BBOX>>' } });
});
afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

function writeCatalog(file: string): void {
  writeFileSync(
    file,
    JSON.stringify({
      weather: { get_weather: { description: 'Current weather for a US city.' } },
      ocr: { perform_ocr: { description: 'Recognise text in an image.', note: 'kept' } },
      wiki: { search: { description: 'Search Wikipedia.' } },
      math: { add: { description: 'a + b.', catalogry: 'Academic & Knowledge' } },
    }),
  );
}

describe('parseCategory', () => {
  it('accepts exactly a wrapped allowed category', () => {
    expect(parseCategory('<<BBOX>>Health<</BBOX>>')).toBe('Health');
    expect(parseCategory('x <<BBOX>> Office Automation <</BBOX>> y')).toBe('Office Automation');
    expect(parseCategory('Health')).toBeUndefined();
    expect(parseCategory('<<BBOX>>health<</BBOX>>')).toBeUndefined();
    expect(TOOL_CATEGORIES).toHaveLength(8);
  });
});

describe('classifyCatalogTools (OpenAI SDK against the mock)', () => {
  it('labels the unlabelled tools, retries malformed answers, keeps labels and other keys, and feeds the donut', async () => {
    const file = path.join(dir, 'mcp_tools_with_desc.json');
    writeCatalog(file);
    const driver = await createDriver('openai:mock-model', {
      env: { OPENAI_BASE_URL: mock.openAiBaseUrl, OPENAI_API_KEY: 'sk-test-openai-key-000000000000' },
      timeoutMs: 60_000,
    });
    const before = mock.generations().length;
    const report = await classifyCatalogTools({ file, driver, retryPolicy, attempts: 3, maxTokens: 64 });
    expect(report.labelled).toEqual([
      { tool: 'weather/get_weather', category: 'Weather & Air Quality' },
      { tool: 'ocr/perform_ocr', category: 'Computer Vision' },
    ]);
    expect(report.kept).toBe(1);
    expect(report.failed).toEqual([{ tool: 'wiki/search', reason: expect.stringContaining('no allowed category in 3 answer(s)') }]);
    // 1 weather + 2 OCR + 3 wiki requests; the labelled math tool is not asked.
    const requests = mock.generations().slice(before);
    expect(requests).toHaveLength(6);
    const first = JSON.stringify(requests[0]?.body);
    for (const category of TOOL_CATEGORIES) expect(first).toContain(category);
    expect(first).toContain('<<BBOX>>');
    expect(first).toContain('Description: Current weather for a US city.');
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.ocr.perform_ocr).toEqual({ description: 'Recognise text in an image.', note: 'kept', catalogry: 'Computer Vision' });
    expect(written.wiki.search).toEqual({ description: 'Search Wikipedia.' });
    expect(written.math.add.catalogry).toBe('Academic & Knowledge');

    const again = await classifyCatalogTools({ file, driver, retryPolicy, attempts: 3, maxTokens: 64 });
    expect(again.kept).toBe(3);
    expect(mock.generations().length - before).toBe(9);

    const donut = toolCategoryFigure(loadToolCatalog(file));
    expect(donut?.config.data.labels).toEqual(['Academic & Knowledge (33.3%)', 'Computer Vision (33.3%)', 'Weather & Air Quality (33.3%)']);
    // The report given our catalog (no labels; what scripts/benchmark_fuzzy.sh passes) takes them from the file beside it.
    const ours = path.join(dir, 'tools_catalog.json');
    const listed = (server: string, tool: string) => ({ canonicalName: `${server}/${tool}`, server, tool, description: '', inputSchema: { type: 'object' } });
    writeFileSync(
      ours,
      JSON.stringify({ toolsHash: 'x', servers: [], tools: [listed('weather', 'get_weather'), listed('wiki', 'search'), listed('math', 'add')] }),
    );
    expect(toolCategoryFigure(loadToolCatalog(ours))).toBeUndefined();
    expect(toolCategoryFigure(loadReportCatalog(ours))?.config.data.labels).toEqual(['Academic & Knowledge (50.0%)', 'Weather & Air Quality (50.0%)']);
  });
});

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = {
    M3_LLM_MAX_RETRIES: '0',
    GEMINI_BASE_URL: mock.url,
    GEMINI_API_KEY: 'test-gemini-key-0000000000',
  };
  // In this process, in a clean environment (test/support/m3-in-process.ts): the command's output and exit status are the point, not its process.
  return runM3InProcess(['tools', 'classify', ...args], env, { cleanEnv: true });
}

describe('m3 tools classify (Gemini SDK against the mock)', () => {
  it('prints the counts, names the tools it could not label and exits 1 for them', async () => {
    const file = path.join(dir, 'cli.json');
    writeCatalog(file);
    const { code, stdout, stderr } = await runCli(['--catalog', file, '--model', 'gemini:gemini-2.5-flash-lite']);
    expect(code, stderr).toBe(1);
    expect(stdout).toContain(`${file}: 4 tools; 2 labelled now by gemini:gemini-2.5-flash-lite, 1 kept, 1 not labelled`);
    expect(stdout).toContain('  Computer Vision: 1');
    expect(stderr).toContain('wiki/search: not labelled');
    expect(stderr).not.toContain('test-gemini-key');
  }, 120_000);

  it('names the file and the expected layout for a catalog of another shape', async () => {
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ weather: ['get_weather'] }));
    const { code, stderr } = await runCli(['--catalog', file]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${file}: at $.weather: `);
    expect(stderr).toContain('expected the reference layout {server: {tool: {description, catalogry?}}}');
  }, 120_000);
});
