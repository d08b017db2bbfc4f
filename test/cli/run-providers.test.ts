// `m3 run` against the wire-level mock LLM, once per vendor: the same task (an image, two parallel
// tool calls, a final answer) must produce a valid prediction file. The command runs in this
// process (test/support/m3-in-process.ts) with a clean environment, the math server as a child.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { episodesForRun, listRuns, openStore } from '../../src/store/index.js';
import { predictionSchema } from '../../src/tasks/schemas.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { nodeEntryArgs } from '../support/built-entry.js';
import { runM3InProcess } from '../support/m3-in-process.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-run-providers-'));
const configFile = path.join(dir, 'servers.json');
const tasksFile = path.join(dir, 'tasks.json');
const priceFile = path.join(dir, 'prices.json');
let mock: MockLlm;

beforeAll(async () => {
  mock = await startMockLlm();
  writeFileSync(priceFile, JSON.stringify({ 'openai:mock-model': { input: 2, output: 10, checkedAt: '2026-12-01' } }));
  writeFileSync(configFile, JSON.stringify({ servers: { math: { command: 'node', args: nodeEntryArgs('servers/math/index.ts'), env: {} } } }));
  await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2a6' } })
    .png()
    .toFile(path.join(dir, 'chart.png'));
  writeFileSync(
    tasksFile,
    JSON.stringify([{ id: 'p1', image: 'chart.png', type: 'arith', prompt: 'use math', question: 'What are 2+3 and the mean of 4, 8 and 12?' }]),
  );
});
afterAll(async () => {
  await mock?.close();
});

async function runCli(model: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const args = [
    'run',
    '--model',
    model,
    '--tasks',
    tasksFile,
    '--config',
    configFile,
    '--image-dir',
    dir,
    '--run-dir',
    path.join(dir, 'results'),
    '--store',
    path.join(dir, 'store.sqlite'),
    '--overwrite',
    '--concurrency',
    '1',
  ];
  // A clean environment, as a child given only these variables: no key of the developer's shell.
  const { code, output } = await runM3InProcess(
    args,
    { M3_LLM_MAX_RETRIES: '0', M3_WORKSPACE_MODE: 'isolated', M3_KEEP_WORKSPACE: '0', ...env },
    { cleanEnv: true },
  );
  return { code, output };
}

const vendors: Array<{ model: string; label: string; env: () => Record<string, string>; vendor: string }> = [
  {
    model: 'openai:mock-model',
    label: 'mock-model',
    vendor: 'openai',
    env: () => ({ OPENAI_BASE_URL: mock.openAiBaseUrl, OPENAI_API_KEY: 'sk-test-openai-key-000000000000', M3_PRICE_TABLE: priceFile }),
  },
  { model: 'ollama:qwen2.5-vl', label: 'qwen2.5-vl', vendor: 'openai', env: () => ({ OLLAMA_BASE_URL: mock.openAiBaseUrl }) },
  {
    model: 'anthropic:claude-mock',
    label: 'claude-mock',
    vendor: 'anthropic',
    env: () => ({ ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: 'sk-ant-test-key-00000000000000' }),
  },
  {
    model: 'gemini:gemini-mock',
    label: 'gemini-mock',
    vendor: 'gemini',
    env: () => ({ GEMINI_BASE_URL: mock.url, GEMINI_API_KEY: 'AIzaTestKey000000000000000000000000000' }),
  },
];

describe('m3 run against each provider (mock LLM)', () => {
  for (const vendor of vendors) {
    it(`${vendor.model} produces a valid prediction file`, async () => {
      const before = mock.generations().length;
      mock.enqueue(
        {
          toolCalls: [
            { name: 'math__add', arguments: { firstNumber: 2, secondNumber: 3 } },
            { name: 'math__mean', arguments: { numbers: [4, 8, 12] } },
          ],
          usage: { inputTokens: 120, outputTokens: 20 },
        },
        { text: '2 + 3 = 5 and the mean is 8.', usage: { inputTokens: 200, outputTokens: 12 } },
      );
      const { code, output } = await runCli(vendor.model, vendor.env());
      expect(code, output).toBe(0);
      const file = path.join(dir, 'results', `${vendor.label}_test_mcp_fuzzy.json`);
      const [record] = JSON.parse(readFileSync(file, 'utf8')) as unknown[];
      const prediction = predictionSchema.parse(record);
      expect(prediction.steps[0]?.calls.map((call) => [call.name, call.result])).toEqual([
        ['math/add', '5'],
        ['math/mean', '8'],
      ]);
      expect(prediction.final_reply).toBe('2 + 3 = 5 and the mean is 8.');
      const requests = mock.generations().slice(before);
      expect(requests).toHaveLength(2);
      expect(requests.every((request) => request.vendor === vendor.vendor && request.valid)).toBe(true);
      // The task image travels in the first request in the vendor's own image format (the transport
      // policy sends the small chart losslessly, as PNG or WebP).
      const firstBody = JSON.stringify(requests[0]?.body);
      expect(firstBody).toMatch(
        vendor.vendor === 'openai' ? /data:image\/(png|webp);base64,/ : vendor.vendor === 'anthropic' ? /"type":"image"/ : /"inlineData"/,
      );
      if (vendor.model === 'openai:mock-model') {
        // Usage from the wire (120+200 in, 20+12 out) priced per million tokens lands in the store.
        const store = openStore(path.join(dir, 'store.sqlite'), { readonly: true });
        try {
          const [episode] = episodesForRun(store, listRuns(store, { modelLabel: vendor.label, limit: 1 })[0]!.runId);
          expect(episode?.usage).toEqual({ inputTokens: 320, outputTokens: 32, cachedTokens: 0 });
          expect(episode?.costUsd).toBeCloseTo((320 * 2 + 32 * 10) / 1_000_000, 12);
        } finally {
          store.close();
        }
      }
      // Secrets never reach the prediction file or the console.
      expect(readFileSync(file, 'utf8')).not.toMatch(/sk-test|sk-ant-test|AIzaTest/);
      expect(output).not.toMatch(/sk-test|sk-ant-test|AIzaTest/);
    }, 180_000);
  }

  it('fails fast with the variable to set when a key is missing', async () => {
    const { code, output } = await runCli('anthropic:claude-mock', { ANTHROPIC_BASE_URL: mock.url });
    expect(code).toBe(2);
    expect(output).toContain('ANTHROPIC_API_KEY');
  }, 180_000);
});
