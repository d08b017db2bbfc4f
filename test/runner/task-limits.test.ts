// Per-task and per-run limits (m3 run --token-limit, --message-limit, --cost-limit, --max-cost)
// through the batch runner: each vendor's real SDK against the wire-level mock LLM, whose usage
// figures (input with cached, output with reasoning) drive the limits; a fixture MCP server (in process)
// and a real SQLite store. Checked: the requests sent, the task's end status in the prediction
// and the store, that it is scored (a prediction kept, status ok), the per-limit counts, the
// cost kept apart for replies the model-response cache served, and the --max-cost stop.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskLimits } from '../../src/agent/task-budget.js';
import { costOfModel } from '../../src/llm/pricing.js';
import type { ModelDriver } from '../../src/llm/types.js';
import { PredictionFile } from '../../src/runner/prediction-file.js';
import { ResponseCache } from '../../src/runner/response-cache.js';
import { runBatch } from '../../src/runner/run-batch.js';
import { costRecord, RunBudget } from '../../src/runner/run-cost.js';
import { StoreRecorder } from '../../src/runner/store-recorder.js';
import { createRun, episodesForRun, openStore, type Store } from '../../src/store/index.js';
import { testAgentOptions, useHost } from '../support/agent-kit.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { startMockLlm, type MockLlm, type MockTurn, type RecordedRequest } from '../support/mock-llm/index.js';
import { driverFor, specs, vendors, type VendorName } from '../llm/helpers.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-task-limits-'));
const host = useHost(() => [fixtureSpec('echo')]);
let store: Store;
let mock: MockLlm;

// Every reply: 600 input tokens (200 of them from the provider's prompt cache) and 100 output
// tokens (40 of them reasoning, which OpenAI counts inside and Gemini apart: the drivers add them).
const usage = { inputTokens: 600, outputTokens: 100, cachedTokens: 200, reasoningTokens: 40 };
// One price for every vendor's model, so each reply costs the same: (400 x 2.5 + 200 x 1.25 + 100 x 10) / 1e6 = $0.00225.
const prices = new Map(Object.values(specs).map((spec) => [spec, { input: 2.5, output: 10, cached: 1.25, checkedAt: '2026-12-02' }]));
const costOf = costOfModel('openai:gpt-4o', prices);
const perReply = 0.00225;
/** When set, the model answers at once (one reply per task) instead of calling a tool every round. */
let answerAtOnce = false;

/** OpenAI chat requests: ids from the turn number, so a repeated episode sends the same history (cache hits). */
function turnNumber(request: RecordedRequest): number {
  const body = request.body as { messages?: Array<{ role: string }> };
  return (body.messages ?? []).filter((message) => message.role === 'assistant').length + 1;
}

function respond(request: RecordedRequest): MockTurn {
  if (answerAtOnce) return { text: 'done', usage };
  const name = host().findByCanonical('echo/echo')?.functionName ?? '';
  return { toolCalls: [{ name, arguments: { text: 'again' }, ...(request.vendor === 'gemini' ? {} : { id: `call_${turnNumber(request)}` }) }], usage };
}

beforeAll(async () => {
  store = openStore(path.join(dir, 'store.sqlite'));
  mock = await startMockLlm({ respond });
});
afterAll(async () => {
  store?.close();
  await mock?.close();
});

interface LimitRun {
  driver: ModelDriver;
  limits?: TaskLimits;
  tasks?: string[];
  runBudget?: RunBudget;
}

async function runLimited({ driver, limits, tasks = ['T1'], runBudget }: LimitRun) {
  const runId = `limits-${Math.random().toString(36).slice(2, 10)}`;
  createRun(store, { runId, modelSpec: driver.id, modelLabel: 'x' });
  const predictions = new PredictionFile(path.join(dir, `${runId}.json`));
  const before = mock.generations().length;
  const result = await runBatch(
    tasks.map((id) => ({ id, image: undefined, type: 't', tier: undefined, question: 'echo until told otherwise' })),
    {
      driver,
      host: host(),
      options: testAgentOptions([dir], { maxStep: 6, ...(limits ? { taskLimits: limits } : {}) }),
      root: dir,
      runId,
      workspaceMode: 'dedup',
      keepWorkspace: false,
      imageSearchDirs: [dir],
      taskTimeoutMs: 0,
      costOf,
    },
    { concurrency: 1, maxRequeue: 0, recorder: new StoreRecorder(store, runId, driver.id), predictions, costOf, ...(runBudget ? { runBudget } : {}) },
  );
  return { result, predictions: predictions.values(), episodes: episodesForRun(store, runId), requests: mock.generations().length - before };
}

describe.each(vendors)('task limits, %s', (vendor: VendorName) => {
  let driver: ModelDriver;
  beforeAll(async () => {
    driver = await driverFor(vendor, mock);
  });

  it('--token-limit: no request once input + output tokens reach the limit; ends limit_tokens and is scored', async () => {
    // 700 tokens a reply: 1,400 after two, 2,100 after the third, which reaches 1,500.
    const { result, predictions, episodes, requests } = await runLimited({ driver, limits: { tokens: 1500 } });
    expect(requests).toBe(3);
    expect(predictions[0]).toMatchObject({ id: 'T1', end_status: 'limit_tokens', end_detail: '2,100 tokens reached the limit of 1,500', final_reply: '' });
    expect(predictions[0]?.status).toBeUndefined();
    expect(episodes[0]).toMatchObject({ status: 'ok', endStatus: 'limit_tokens', usage: { inputTokens: 1800, outputTokens: 300, cachedTokens: 600 } });
    expect(result.progress).toMatchObject({ done: 1, failedModel: 0, limited: { tokens: 1, messages: 0, cost: 0 } });
  });

  it('--message-limit: at most n model replies; ends limit_messages', async () => {
    const { result, predictions, requests } = await runLimited({ driver, limits: { messages: 2 } });
    expect(requests).toBe(2);
    expect(predictions[0]).toMatchObject({ end_status: 'limit_messages', end_detail: '2 model replies reached the limit of 2' });
    expect(result.progress.limited).toEqual({ tokens: 0, messages: 1, cost: 0 });
  });

  it('--cost-limit: no request once what the task paid reaches the limit; ends limit_cost', async () => {
    // $0.00225 a reply: $0.0045 after two, $0.00675 after the third, which reaches $0.005.
    const { result, predictions, episodes, requests } = await runLimited({ driver, limits: { costUsd: 0.005 } });
    expect(requests).toBe(3);
    expect(predictions[0]).toMatchObject({ end_status: 'limit_cost', end_detail: '$0.006750 reached the limit of $0.005' });
    expect(episodes[0]?.costUsd).toBeCloseTo(3 * perReply, 10);
    expect(result.progress.limited).toEqual({ tokens: 0, messages: 0, cost: 1 });
  });
});

describe('limits and the model-response cache (openai)', () => {
  it('served replies count toward tokens and messages but cost nothing: paid and saved are kept apart', async () => {
    const base = await driverFor('openai', mock);
    const cache = ResponseCache.open({ policy: 'use', file: path.join(dir, 'model-cache.sqlite') }, 'cache-run');
    try {
      const driver = cache.wrap(base);
      // First run: 3 replies recorded in the cache.
      const first = await runLimited({ driver, limits: { messages: 3 } });
      expect(first.requests).toBe(3);
      // Second run: the same 3 replies are served (no request, nothing paid); the cost limit of
      // $0.005 is reached by the paid replies only, after 3 more requests: 6 replies in all.
      const second = await runLimited({ driver, limits: { costUsd: 0.005 } });
      expect(second.requests).toBe(3);
      expect(cache.counts).toMatchObject({ served: 3 });
      expect(second.predictions[0]).toMatchObject({ end_status: 'limit_cost' });
      expect(second.episodes[0]?.costUsd).toBeCloseTo(3 * perReply, 10);
      const record = costRecord(second.result.progress.billed, second.result.progress.limited, costOf);
      expect(record.paidUsd).toBeCloseTo(3 * perReply, 10);
      expect(record.savedUsd).toBeCloseTo(3 * perReply, 10);
      expect(record.servedTokens).toEqual({ input: 1800, output: 300, cached: 600 });
      // A token limit counts served replies: a cached rerun stops where the recorded run stopped.
      const third = await runLimited({ driver, limits: { tokens: 1500 } });
      expect(third.requests).toBe(0);
      expect(third.predictions[0]).toMatchObject({ end_status: 'limit_tokens' });
    } finally {
      cache.close();
    }
  });
});

describe('--max-cost (openai)', () => {
  it('stops starting tasks once the run paid the budget; tasks in flight finish, the rest are not started', async () => {
    answerAtOnce = true;
    try {
      const driver = await driverFor('openai', mock);
      const runBudget = new RunBudget(0.004);
      // One reply per task: $0.00225 after T1 (below), $0.0045 after T2 (reached): T3 and T4 never start.
      const { result, predictions, requests } = await runLimited({ driver, tasks: ['T1', 'T2', 'T3', 'T4'], runBudget });
      expect(requests).toBe(2);
      expect(predictions.map((record) => record.id)).toEqual(['T1', 'T2']);
      expect(result.notStarted).toEqual(['T3', 'T4']);
      expect(runBudget.exhausted()).toBe(true);
      expect(runBudget.spentUsd).toBeCloseTo(2 * perReply, 10);
    } finally {
      answerAtOnce = false;
    }
  });
});
