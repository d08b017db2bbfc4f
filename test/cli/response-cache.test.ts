// `m3 run --cache`: `m3 run` (in this process: test/support/m3-in-process.ts) with the OpenAI
// driver against the wire-level mock LLM. A first run records every response; a second identical
// run makes no request to the mock and writes the same predictions; a changed image, tool list or
// temperature misses; an export line whose key is not its request's is refused on import.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRuns, openStore } from '../../src/store/index.js';
import { runPage } from '../../src/view/pages.js';
import { exportResponses, importResponses, readResponseStats } from '../../src/llm/response-cache-transfer.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { nodeEntryArgs } from '../support/built-entry.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-response-cache-'));
const cacheFile = path.join(dir, 'model-cache.sqlite');
let mock: MockLlm;

beforeAll(async () => {
  mock = await startMockLlm();
  // The same file name in two folders: the requests differ only in the image bytes.
  for (const [colour, rgb] of [
    ['red', { r: 200, g: 30, b: 30 }],
    ['blue', { r: 30, g: 30, b: 200 }],
  ] as const) {
    mkdirSync(path.join(dir, colour));
    await sharp({ create: { width: 32, height: 24, channels: 3, background: rgb } })
      .png()
      .toFile(path.join(dir, colour, 'pic.png'));
  }
  const server = (file: string) => ({ command: 'node', args: nodeEntryArgs(`test/support/fixture-servers/${file}`), env: {} });
  writeFileSync(path.join(dir, 'echo.json'), JSON.stringify({ servers: { echo: server('echo.ts') } }));
  writeFileSync(path.join(dir, 'echo-image.json'), JSON.stringify({ servers: { echo: server('echo.ts'), image: server('image.ts') } }));
  writeFileSync(
    path.join(dir, 'tasks.json'),
    JSON.stringify([{ id: 'c1', image: 'pic.png', type: 'vision', prompt: 'echo the colour', question: 'What colour is the picture?' }]),
  );
}, 60_000);
afterAll(async () => {
  await mock?.close();
});

/** The two turns of one episode: an echo call, then the answer. */
const turns = () => [{ toolCalls: [{ name: 'echo__echo', arguments: { text: 'red' } }] }, { text: 'It is red.' }];

async function run(runId: string, options: { colour?: string; config?: string; extra?: string[] } = {}) {
  const outcome = await runM3InProcess(
    [
      'run',
      '--model',
      'openai:mock-model',
      '--tasks',
      path.join(dir, 'tasks.json'),
      '--config',
      path.join(dir, options.config ?? 'echo.json'),
      '--image-dir',
      path.join(dir, options.colour ?? 'red'),
      '--run-dir',
      path.join(dir, runId),
      '--store',
      path.join(dir, `${runId}.sqlite`),
      // Each run writes into its own folder: the cache keys the workspace paths the model is shown by placeholders.
      '--run-id',
      'cached',
      '--concurrency',
      '1',
      '--cache',
      '--cache-file',
      cacheFile,
      ...(options.extra ?? []),
    ],
    { OPENAI_BASE_URL: mock.openAiBaseUrl, OPENAI_API_KEY: 'sk-test-openai-key-000000000000', M3_LLM_MAX_RETRIES: '0', M3_WORKSPACE_MODE: 'isolated' },
  );
  expect(outcome.code, outcome.output).toBe(0);
  return outcome;
}

function predictions(runId: string): unknown {
  return JSON.parse(readFileSync(path.join(dir, runId, `mock-model_test_mcp_fuzzy.json`), 'utf8'));
}

/** What the run's manifest file says the cache did. */
function cacheCounts(runId: string): unknown {
  const manifest = JSON.parse(readFileSync(path.join(dir, runId, 'mock-model_test_mcp_fuzzy.manifest.json'), 'utf8')) as { responseCache?: unknown };
  return manifest.responseCache;
}

describe('m3 run --cache', () => {
  it('records responses, then serves an identical run without a request and with the same predictions', async () => {
    mock.enqueue(...turns());
    await run('first');
    expect(mock.generations()).toHaveLength(2);
    expect(cacheCounts('first')).toMatchObject({ policy: 'use', served: 0, missed: 2, recorded: 2 });
    mock.requests.length = 0;
    await run('second');
    expect(mock.requests).toEqual([]);
    expect(predictions('second')).toEqual(predictions('first'));
    expect(cacheCounts('second')).toMatchObject({ policy: 'use', served: 2, missed: 0, recorded: 0 });
    expect(readFileSync(cacheFile).includes('sk-test-openai-key')).toBe(false);
    // The viewer's run header counts the served responses beside the mocked tool calls.
    const store = openStore(path.join(dir, 'second.sqlite'), { readonly: true });
    try {
      const [stored] = listRuns(store);
      const page = runPage({ store, resultsDir: path.join(dir, 'second') }, stored?.runId ?? '');
      expect(page.run.modelResponses).toMatchObject({ servedFromCache: 2, cacheLookups: 2, batched: 0 });
    } finally {
      store.close();
    }
    const summary = await runM3InProcess(['summary', '--results', path.join(dir, 'second'), '--save', path.join(dir, 'save')]);
    expect(summary.code, summary.output).toBe(0);
    expect(summary.stdout).toContain('model cache   mock-model: 2 of 2 model responses served from the cache (m3 run --cache use)');
  }, 240_000);

  it.each([
    ['a changed image', { colour: 'blue' }],
    ['a changed tool list', { config: 'echo-image.json' }],
    ['a changed temperature', { extra: ['--temperature', '0.5'] }],
  ])(
    'misses on %s',
    async (_name, options) => {
      mock.requests.length = 0;
      mock.enqueue(...turns());
      const runId = `miss-${mock.pending()}-${Object.keys(options)[0]}`;
      await run(runId, options);
      expect(mock.generations().length).toBeGreaterThan(0);
      expect(cacheCounts(runId)).toMatchObject({ served: 0 });
    },
    240_000,
  );

  it('exports and re-imports its entries, and refuses a line whose key is not that of its request', () => {
    const exported = path.join(dir, 'export.jsonl');
    const count = exportResponses(cacheFile, exported);
    expect(count).toBeGreaterThanOrEqual(2);
    const fresh = path.join(dir, 'imported.sqlite');
    expect(importResponses(fresh, exported)).toBe(count);
    expect(readResponseStats(fresh)).toEqual([expect.objectContaining({ provider: 'openai', model: 'mock-model', origin: 'imported', entries: count })]);
    // The first line's request with another temperature: its stored key no longer matches.
    const lines = readFileSync(exported, 'utf8').trim().split('\n');
    const tampered = JSON.parse(lines[0] as string) as { request: { temperature: unknown } };
    tampered.request.temperature = 0.9;
    const bad = path.join(dir, 'tampered.jsonl');
    writeFileSync(bad, `${[JSON.stringify(tampered), ...lines.slice(1)].join('\n')}\n`);
    const other = path.join(dir, 'refused.sqlite');
    expect(() => importResponses(other, bad)).toThrow(/tampered\.jsonl:1: refused: key: does not match/);
    expect(readResponseStats(other)).toEqual([]);
  });
});
