// The batch runner with the fixture servers (in process) and a real SQLite store; drivers are scripted
// implementations of the driver interface so failures can be placed exactly.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentOptions } from '../../src/agent/options.js';
import { ProviderError, ServerError } from '../../src/errors/index.js';
import { createReplayDriver } from '../../src/llm/replay/driver.js';
import type { GenerateResponse, ModelDriver } from '../../src/llm/types.js';
import { McpHost } from '../../src/mcp/index.js';
import { PredictionFile } from '../../src/runner/prediction-file.js';
import { runBatch } from '../../src/runner/run-batch.js';
import type { TaskEnvironment } from '../../src/runner/run-task.js';
import { StoreRecorder } from '../../src/runner/store-recorder.js';
import type { RunnableTask } from '../../src/runner/task-set.js';
import { createRun, episodesForRun, openStore, type Store } from '../../src/store/index.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { inProcessHost } from '../support/in-process-host.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-batch-'));
let host: McpHost;
let store: Store;

beforeAll(async () => {
  host = await McpHost.start([fixtureSpec('echo'), fixtureSpec('slow')], { requireAll: true, connectServer: inProcessHost().connectServer });
  store = openStore(path.join(dir, 'store.sqlite'));
});
afterAll(async () => {
  store?.close();
  await host?.close();
});

const agentOptions: AgentOptions = {
  maxStep: 3,
  maxConcurrent: 4,
  topTools: 0,
  maxNewTokens: 100,
  mergePrepareWork: true,
  skipEndStage: true,
  instructionRole: 'user',
  toolResultMaxChars: 0,
  imagePolicy: { recodeOverKb: 0, maxEdge: 0 },
  retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 },
  toolCallTimeoutMs: 5000,
  imageRoots: [dir],
};

function environment(driver: ModelDriver, taskTimeoutMs = 0): TaskEnvironment {
  return { driver, host, options: agentOptions, root: dir, runId: 'r', workspaceMode: 'dedup', keepWorkspace: true, imageSearchDirs: [dir], taskTimeoutMs };
}

/** Answers per task: 'sleep' calls slow/sleep for 2 s; 'model' / 'outage' fail as a provider would. */
function scriptedDriver(): ModelDriver & { calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const done = (text: string): GenerateResponse => ({
    text,
    toolCalls: [],
    stopReason: 'end',
    usage: { inputTokens: 10, outputTokens: 2, cachedTokens: 0 },
    latencyMs: 1,
    warnings: [],
  });
  return {
    id: 'script:x',
    provider: 'script',
    model: 'x',
    acceptsImages: true,
    calls,
    async generate(request) {
      const taskId = request.context?.taskId ?? '';
      calls.set(taskId, (calls.get(taskId) ?? 0) + 1);
      if (taskId.startsWith('model')) throw new ProviderError('invalid_request', 'the model sent a request the API rejected');
      if (taskId.startsWith('outage')) throw new ProviderError('transient', 'HTTP 503 from provider');
      if (taskId.startsWith('sleep') && !request.messages.some((message) => message.role === 'tool')) {
        return { ...done(''), toolCalls: [{ id: 'c1', name: 'slow__sleep', arguments: { ms: 2000 } }], stopReason: 'tool_calls' };
      }
      return done(`answer for ${taskId}`);
    },
    classifyError: (error) =>
      error instanceof ProviderError ? { errorClass: error.errorClass, message: error.message } : { errorClass: 'fatal', message: String(error) },
  };
}

function task(id: string, image?: string): RunnableTask {
  return { id, image, type: 't', tier: undefined, question: `q ${id}` };
}

async function batch(runId: string, tasks: RunnableTask[], driver: ModelDriver, taskTimeoutMs = 0) {
  createRun(store, { runId, modelSpec: driver.id, modelLabel: 'x' });
  const predictions = new PredictionFile(path.join(dir, `${runId}.json`));
  const result = await runBatch(
    tasks,
    { ...environment(driver, taskTimeoutMs), runId },
    { concurrency: 3, maxRequeue: 2, recorder: new StoreRecorder(store, runId, driver.id), predictions },
  );
  return { result, predictions, file: predictions.file };
}

describe('batch runner', () => {
  it('writes predictions and store rows for every finished task, replaying ground truth', async () => {
    const gt = new Map([
      ['t1', { id: 't1', question: 'q', final_reply: 'f', steps: [{ step: 1, calls: [{ name: 'echo/echo', arguments: { text: 'hi' } }] }] }],
    ]);
    const driver = await createReplayDriver('gt', { env: {}, groundTruth: gt, timeoutMs: 0 });
    const { result, file } = await batch('replay-run', [task('t1')], driver);
    expect(result.progress).toMatchObject({ done: 1, failedModel: 0, failedInfra: 0 });
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written[0].steps[0].calls[0]).toEqual({ name: 'echo/echo', arguments: { text: 'hi' }, result: 'hi' });
    const [episode] = episodesForRun(store, 'replay-run');
    expect(episode).toMatchObject({ status: 'ok', taskId: 't1', toolCallCount: 1 });
    expect(episode?.prediction?.steps[0]?.calls[0]?.name).toBe('echo/echo');
  });

  it('classifies model and infrastructure failures apart and bounds the requeue', async () => {
    const driver = scriptedDriver();
    const { result, predictions } = await batch('fail-run', [task('ok-1'), task('model-1'), task('outage-1')], driver);
    expect(result.progress).toMatchObject({ done: 3, failedModel: 1, failedInfra: 1, requeued: 2 });
    expect(driver.calls.get('outage-1')).toBe(3); // first attempt + M3_MAX_TASK_REQUEUE (2)
    expect(driver.calls.get('model-1')).toBe(1); // a model failure is not retried
    expect(predictions.ids().sort()).toEqual(['model-1', 'ok-1']); // infra failures stay out of the scored file
    const episodes = episodesForRun(store, 'fail-run');
    expect(episodes.filter((episode) => episode.taskId === 'outage-1').map((episode) => episode.attempt)).toEqual([1, 2, 3]);
    expect(episodes.find((episode) => episode.taskId === 'model-1')).toMatchObject({ status: 'model_failure', failureKind: 'model' });
    expect(result.failures.find((failure) => failure.taskId === 'outage-1')?.verdict).toMatchObject({ status: 'infra_failure', code: 'provider_transient' });
  });

  it('enforces the per-task wall clock and counts the timeout as infrastructure', async () => {
    const driver = scriptedDriver();
    const { result } = await batch('timeout-run', [task('sleep-1')], driver, 600);
    expect(result.failures[0]?.verdict).toMatchObject({ status: 'timeout', kind: 'infra', code: 'task_timeout' });
    expect(result.failures[0]?.attempts).toBe(3);
  });

  it('fails a task with a missing image clearly and keeps going', async () => {
    const driver = scriptedDriver();
    const { result } = await batch('image-run', [task('ok-2'), task('ok-3', 'images/absent.png')], driver);
    expect(result.progress).toMatchObject({ done: 2, failedInfra: 1 });
    expect(result.failures[0]?.verdict.code).toBe('missing_image');
    expect(result.failures[0]?.verdict.message).toContain('images/absent.png');
  });

  it('fails a task whose ground truth needs a server that is not running, without requeue', async () => {
    const driver = scriptedDriver();
    const { result } = await batch('server-run', [{ ...task('ok-4'), missingServers: ['weather'] }, task('ok-5')], driver);
    expect(result.progress).toMatchObject({ done: 2, failedInfra: 1, requeued: 0 });
    expect(result.failures[0]?.verdict).toMatchObject({ code: 'unknown_server', kind: 'infra' });
    expect(result.failures[0]?.verdict.message).toContain('weather');
    expect(driver.calls.has('ok-4')).toBe(false);
  });

  it('skips tasks already finished in the store on resume and restores their predictions', async () => {
    const driver = scriptedDriver();
    await batch('resume-run', [task('ok-a'), task('ok-b')], driver);
    const predictions = new PredictionFile(path.join(dir, 'resume-run-fresh.json'));
    const again = scriptedDriver();
    const result = await runBatch(
      [task('ok-a'), task('ok-b'), task('ok-c')],
      { ...environment(again), runId: 'resume-run' },
      {
        concurrency: 2,
        maxRequeue: 0,
        recorder: new StoreRecorder(store, 'resume-run', again.id),
        predictions,
      },
    );
    expect(result.skipped.sort()).toEqual(['ok-a', 'ok-b']);
    expect([...again.calls.keys()]).toEqual(['ok-c']);
    expect(predictions.ids().sort()).toEqual(['ok-a', 'ok-b', 'ok-c']);
  });

  it('counts a crashed server as infrastructure', async () => {
    const { classifyFailure } = await import('../../src/runner/failure.js');
    expect(classifyFailure(new ServerError('yolo', 'server yolo exited'))).toMatchObject({ kind: 'infra', requeue: true });
  });
});
