// What a batched run and a cache-served rerun paid, end to end: `m3 run` with the OpenAI driver
// against the mock, in this process (test/support/m3-in-process.ts: the point is what the runs
// record and print, not the CLI's process; the runs' servers are still children). A `--batch --cache` run marks every model call row as
// answered by its batch job and prices the episodes and the run at the batch price (computed here
// from the mock's usage and the price table); a `--cache` rerun is served whole by the cache, its
// rows marked `cache`, $0 paid and the list price shown as saved (store, manifest, summary,
// llm_stats.json).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { episodesForRun, getRun, modelCallsForEpisode, runSummary, type Store } from '../../../src/store/index.js';
import { writeChartRunFolder } from '../../support/chart-run-folder.js';
import { readStore } from '../../support/m3-child.js';
import { runM3InProcess } from '../../support/m3-in-process.js';
import { startMockLlm, type MockLlm } from '../../support/mock-llm/index.js';

let mock: MockLlm;
let dir: string;
const price = { input: 2, output: 10, cached: 1, checkedAt: '2026-12-02' };
const reply = { text: 'The chart shows 5 bars.', usage: { inputTokens: 300, outputTokens: 8 } };
/** The list price of one mock reply at the table's price, in USD. */
const listPerReply = (reply.usage.inputTokens * price.input + reply.usage.outputTokens * price.output) / 1_000_000;

beforeAll(async () => {
  mock = await startMockLlm({ fallback: reply });
  dir = await writeChartRunFolder('m3-batch-cost-', ['c1', 'c2']);
  writeFileSync(path.join(dir, 'prices.json'), JSON.stringify({ 'mock-model': price }));
}, 60_000);
afterAll(async () => {
  await mock?.close();
});

async function run(name: string, extra: string[]) {
  const runDir = path.join(dir, name);
  const outcome = await runM3InProcess(
    [
      'run',
      '--model',
      'openai:mock-model',
      '--tasks',
      path.join(dir, 'tasks.json'),
      '--config',
      path.join(dir, 'servers.json'),
      '--image-dir',
      dir,
      '--run-dir',
      runDir,
      '--store',
      path.join(runDir, 'store.sqlite'),
      '--run-id',
      name,
      '--concurrency',
      '2',
      '--cache',
      '--cache-file',
      path.join(dir, 'model-cache.sqlite'),
      ...extra,
    ],
    {
      OPENAI_BASE_URL: mock.openAiBaseUrl,
      OPENAI_API_KEY: 'sk-test-openai-key-000000000000',
      M3_LLM_MAX_RETRIES: '0',
      M3_WORKSPACE_MODE: 'isolated',
      M3_PRICE_TABLE: path.join(dir, 'prices.json'),
      M3_LLM_STATS: '1',
    },
  );
  expect(outcome.code, outcome.output).toBe(0);
  const runId = `${name}.mock-model`;
  const read = <T>(pick: (store: Store) => T): T => readStore(path.join(runDir, 'store.sqlite'), pick) as T;
  const episodes = read((store) => episodesForRun(store, runId));
  const calls = read((store) => episodes.flatMap((episode) => modelCallsForEpisode(store, episode.id)));
  const manifest = read((store) => getRun(store, runId)?.manifest) as { cost?: Record<string, unknown> };
  const summary = read((store) => runSummary(store, runId));
  const stats = JSON.parse(readFileSync(path.join(runDir, 'mock-model.llm_stats.json'), 'utf8')) as Record<string, unknown>;
  return { runDir, outcome, episodes, calls, manifest, summary, stats };
}

describe('what a batched run and a cache-served rerun paid', () => {
  it('prices batch replies at the batch price and cache-served replies at $0, with the saved amount shown', async () => {
    const jobsBefore = mock.batches.jobs.length;
    const batched = await run('batched', ['--batch', '--batch-window', '300', '--batch-poll', '100']);
    expect(mock.batches.jobs.length).toBeGreaterThan(jobsBefore);
    expect(mock.generations()).toHaveLength(0);

    // Every model call row says which batch job answered it, and what it paid and saved.
    const jobIds = new Set(mock.batches.jobs.map((job) => job.id));
    expect(batched.calls.length).toBeGreaterThanOrEqual(2);
    for (const call of batched.calls) {
      expect(call).toMatchObject({ billing: 'batch', usage: { inputTokens: 300, outputTokens: 8 } });
      expect(jobIds.has(call.vendorBatchId ?? '')).toBe(true);
      const list = (call.usage.inputTokens * price.input + call.usage.outputTokens * price.output) / 1_000_000;
      expect(call.costUsd).toBeCloseTo(list * 0.5, 12);
      expect(call.savedUsd).toBeCloseTo(list * 0.5, 12);
    }
    // Each episode, and the run, cost the batch price of its replies.
    for (const episode of batched.episodes) {
      const replies = batched.calls.filter((call) => call.episodeId === episode.id).length;
      expect(episode.costUsd).toBeCloseTo(replies * listPerReply * 0.5, 12);
      expect(episode.savedUsd).toBeCloseTo(replies * listPerReply * 0.5, 12);
    }
    const batchPaid = batched.calls.length * listPerReply * 0.5;
    expect(batched.summary.costUsd).toBeCloseTo(batchPaid, 12);
    expect(batched.manifest.cost?.paidUsd).toBeCloseTo(batchPaid, 12);
    expect(batched.manifest.cost?.savedByBatchUsd).toBeCloseTo(batchPaid, 12);
    expect(batched.manifest.cost?.savedUsd).toBe(0);
    expect(batched.stats).toMatchObject({ requests: batched.calls.length, batchAnswered: batched.calls.length, servedFromCache: 0 });
    expect(batched.stats.costUsd).toBeCloseTo(batchPaid, 12);
    expect(String(batched.stats.costBasis)).toContain('provider batch replies at 0.5 x list price, cache-served replies at $0');
    expect(batched.outcome.output).toContain(`$${batchPaid.toFixed(4)} paid`);
    expect(batched.outcome.output).toContain('saved by batch pricing');

    // The rerun is served whole by the cache: no request, $0 paid, the list price saved.
    const generationsBefore = mock.generations().length;
    const jobsAfterFirst = mock.batches.jobs.length;
    const rerun = await run('rerun', []);
    expect(mock.generations().length).toBe(generationsBefore);
    expect(mock.batches.jobs.length).toBe(jobsAfterFirst);
    expect(rerun.calls.map((call) => call.billing)).toEqual(Array(batched.calls.length).fill('cache'));
    for (const call of rerun.calls) {
      expect(call.costUsd).toBe(0);
      expect(call.savedUsd).toBeCloseTo(listPerReply, 12);
    }
    for (const episode of rerun.episodes) expect(episode.costUsd).toBe(0);
    const cacheSaved = rerun.calls.length * listPerReply;
    expect(rerun.summary).toMatchObject({ costUsd: 0 });
    expect(rerun.summary.savedUsd).toBeCloseTo(cacheSaved, 12);
    expect(rerun.manifest.cost).toMatchObject({ paidUsd: 0, savedByBatchUsd: 0 });
    expect(rerun.manifest.cost?.savedUsd).toBeCloseTo(cacheSaved, 12);
    expect(rerun.stats).toMatchObject({ servedFromCache: rerun.calls.length, batchAnswered: 0, costUsd: 0 });
    expect(rerun.stats.savedUsd).toBeCloseTo(cacheSaved, 12);
    expect(rerun.outcome.output).toContain(`$0.0000 paid, $${cacheSaved.toFixed(4)} served by the model cache (saved)`);

    // m3 summary reads the same figures back from the manifests.
    const summary = await runM3InProcess(['summary', '--results', rerun.runDir, '--save', path.join(rerun.runDir, 'save')], {});
    expect(summary.code, summary.output).toBe(0);
    expect(summary.stdout).toContain(`cost          mock-model: $0.0000 paid, $${cacheSaved.toFixed(4)} served by the model cache (saved)`);
  }, 300_000);
});
