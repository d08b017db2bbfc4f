// `m3 run --batch` as real child processes against the mock's batch endpoints, once per vendor:
// the run submits its tasks' first requests as one job, is killed (SIGKILL, process group) while
// the job is pending, and `--resume` picks the job up from the run store: it polls that job,
// takes its answers, and neither submits those requests again nor sends them the ordinary way.
// The killed run is a child (the kill is the point); the refused run, the resume and the summary
// run in this process (test/support/m3-in-process.ts): what they read from the store and the mock
// and what they print is checked, not their process.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRun, providerBatchesOf } from '../../src/store/index.js';
import { predictionSchema } from '../../src/tasks/schemas.js';
import { writeChartRunFolder } from '../support/chart-run-folder.js';
import { killGroup, readStore, startM3, waitFor } from '../support/m3-child.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';

let mock: MockLlm;
let dir: string;

beforeAll(async () => {
  mock = await startMockLlm({ fallback: { text: 'The chart shows 5 bars.', usage: { inputTokens: 300, outputTokens: 8 } } });
  dir = await writeChartRunFolder('m3-run-batch-', ['b1', 'b2']);
  const price = { input: 2, output: 10, checkedAt: '2026-12-01' };
  writeFileSync(path.join(dir, 'prices.json'), JSON.stringify({ 'mock-model': price, 'claude-mock': price, 'gemini-mock': price }));
});
afterAll(async () => {
  await mock?.close();
});

const vendors = [
  { model: 'openai:mock-model', env: () => ({ OPENAI_BASE_URL: mock.openAiBaseUrl, OPENAI_API_KEY: 'sk-test-openai-key-000000000000' }) },
  { model: 'anthropic:claude-mock', env: () => ({ ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: 'sk-ant-test-key-00000000000000' }) },
  { model: 'gemini:gemini-mock', env: () => ({ GEMINI_BASE_URL: mock.url, GEMINI_API_KEY: 'AIzaTestKey000000000000000000000000000' }) },
];

describe('m3 run --batch with a provider that has no batch API', () => {
  it('stops with exit status 2 before starting a server, naming the providers that have one', async () => {
    const result = await runM3InProcess([
      'run',
      '--model',
      'replay:gt',
      '--tasks',
      path.join(dir, 'tasks.json'),
      '--config',
      path.join(dir, 'servers.json'),
      '--batch',
      '--run-dir',
      path.join(dir, 'refused'),
    ]);
    expect(result.code, result.output).toBe(2);
    expect(result.stderr).toContain(
      '--batch: replay:gt has no provider batch API here: replay answers from recorded files and calls no provider (batch works with openai, openai-responses, anthropic, gemini, google, qwen, dashscope)',
    );
    expect(result.output).not.toContain('run folder:');
  }, 120_000);
});

describe('m3 run --batch: resume after a kill while the job is pending', () => {
  for (const vendor of vendors) {
    it(`${vendor.model}: --resume polls the pending job instead of sending its requests again`, async () => {
      const runDir = path.join(dir, vendor.model.replace(/[^a-z0-9]+/gi, '-'));
      const storeFile = path.join(runDir, 'store.sqlite');
      const batchId = `batch-${vendor.model.split(':')[0]}`;
      // The run of the one cell is named after the batch id and the model label.
      const runId = `${batchId}.${vendor.model.split(':')[1]}`;
      const args = ['run', '--model', vendor.model, '--tasks', path.join(dir, 'tasks.json'), '--config', path.join(dir, 'servers.json'), '--image-dir', dir];
      const more = [
        '--run-dir',
        runDir,
        '--store',
        storeFile,
        '--run-id',
        batchId,
        '--concurrency',
        '2',
        '--batch',
        '--batch-window',
        '300',
        '--batch-poll',
        '100',
      ];
      const env = { M3_LLM_MAX_RETRIES: '0', M3_WORKSPACE_MODE: 'isolated', M3_PRICE_TABLE: path.join(dir, 'prices.json'), ...vendor.env() };
      const jobsBefore = mock.batches.jobs.length;
      mock.batches.hold = true;

      const first = startM3([...args, ...more], env);
      try {
        const job = await waitFor('the batch job in the run store', () => readStore(storeFile, (store) => providerBatchesOf(store, runId)[0]), first);
        expect(job).toMatchObject({ state: 'pending', requests: 2, answered: 0 });
        expect(mock.batches.jobs.length).toBe(jobsBefore + 1);
        expect(mock.batches.jobs.at(-1)?.id).toBe(job.vendorBatchId);
      } finally {
        killGroup(first);
        await first.exit;
      }

      mock.batches.hold = false;
      const syncBefore = mock.generations().length;
      const resumed = await runM3InProcess([...args, ...more, '--resume', batchId], env);
      expect(resumed.code, resumed.output).toBe(0);
      expect(resumed.output).toContain(
        "2 request(s) wait in pending batch job(s) of an earlier process; the same requests made again take those jobs' answers",
      );
      // No new job and no synchronous request: the pending job answered both tasks.
      expect(mock.batches.jobs.length).toBe(jobsBefore + 1);
      expect(mock.generations().length).toBe(syncBefore);
      expect(mock.batches.jobs.at(-1)?.state).toBe('ended');

      const jobs = readStore(storeFile, (store) => providerBatchesOf(store, runId));
      expect(jobs).toEqual([expect.objectContaining({ state: 'ended', requests: 2, answered: 2 })]);
      const manifest = readStore(storeFile, (store) => getRun(store, runId)?.manifest) as { providerBatch?: Record<string, unknown> } | undefined;
      // Two answers of 300 input and 8 output tokens at $2 / $10 per 1M: $0.00136 at list price, half at batch price.
      expect(manifest?.providerBatch).toMatchObject({ jobs: 0, resumed: 2, answered: 2, fallback: 0, discount: 0.5 });
      expect(manifest?.providerBatch?.answeredCostListUsd).toBeCloseTo(0.00136, 10);
      expect(manifest?.providerBatch?.answeredCostBatchUsd).toBeCloseTo(0.00068, 10);
      const summary = await runM3InProcess(['summary', '--results', runDir, '--save', path.join(runDir, 'save')], env);
      expect(summary.code, summary.output).toBe(0);
      expect(summary.stdout).toContain(
        `provider batch ${vendor.model.split(':')[1]}: 2 of 2 batched model responses answered by 0 batch job(s) (2 picked up from pending jobs), 0 sent the ordinary way; their cost $0.0007 at batch price ($0.0014 at list price) (m3 run --batch)`,
      );
      const predictionFile = path.join(runDir, `${vendor.model.split(':')[1]}_test_mcp_fuzzy.json`);
      const predictions = (JSON.parse(readFileSync(predictionFile, 'utf8')) as unknown[]).map((record) => predictionSchema.parse(record));
      expect(predictions.map((prediction) => [prediction.id, prediction.final_reply]).sort()).toEqual([
        ['b1', 'The chart shows 5 bars.'],
        ['b2', 'The chart shows 5 bars.'],
      ]);
    }, 240_000);
  }
});
