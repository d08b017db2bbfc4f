// Every infrastructure code a tool call can end with ends its episode as an infrastructure
// failure through the real batch runner: an upstream API our server reports rate-limited (result
// `_meta` code) and a tool timeout are requeued, then recorded as infra with that code and left
// out of the predictions; a server's ordinary error result stays the model's and is scored.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createReplayDriver } from '../../src/llm/replay/driver.js';
import { PredictionFile } from '../../src/runner/prediction-file.js';
import { runBatch } from '../../src/runner/run-batch.js';
import { StoreRecorder } from '../../src/runner/store-recorder.js';
import { createRun, episodesForRun, openStore } from '../../src/store/index.js';
import { testAgentOptions, useHost } from '../support/agent-kit.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-codes-'));
// Only the slow server's calls time out (its own call timeout wins over the run's).
const host = useHost(() => [fixtureSpec('meta'), fixtureSpec('slow', { callTimeoutMs: 300 }), fixtureSpec('echo')]);

const tasks = {
  upstream: { name: 'meta/upstream_fail', arguments: { code: 'upstream_rate_limited', status: 429, retryAfterSec: 3 } },
  timeout: { name: 'slow/sleep', arguments: { ms: 5000 } },
  refused: { name: 'echo/fail', arguments: { message: 'no such city' } },
  fine: { name: 'echo/echo', arguments: { text: 'fine' } },
};

describe('infrastructure codes of tool calls', () => {
  it('end the episode as infra_failure with the code, requeued, never scored', async () => {
    const groundTruth = new Map(
      Object.entries(tasks).map(([id, call]) => [id, { id, question: 'q', final_reply: 'done', steps: [{ step: 1, calls: [call] }] }]),
    );
    const driver = await createReplayDriver('gt', { env: {}, groundTruth, timeoutMs: 0 });
    const store = openStore(path.join(dir, 'store.sqlite'));
    createRun(store, { runId: 'codes', modelSpec: driver.id, modelLabel: 'x' });
    const predictions = new PredictionFile(path.join(dir, 'predictions.json'));
    const options = testAgentOptions([dir]);
    const result = await runBatch(
      Object.keys(tasks).map((id) => ({ id, type: 't', tier: undefined, question: 'q', image: undefined })),
      { driver, host: host(), options, root: dir, runId: 'codes', workspaceMode: 'dedup', keepWorkspace: true, imageSearchDirs: [dir], taskTimeoutMs: 0 },
      { concurrency: 2, maxRequeue: 1, recorder: new StoreRecorder(store, 'codes', driver.id), predictions },
    );
    const failures = Object.fromEntries(result.failures.map((failure) => [failure.taskId, [failure.verdict.status, failure.verdict.code, failure.attempts]]));
    expect(failures).toEqual({ upstream: ['infra_failure', 'upstream_rate_limited', 2], timeout: ['infra_failure', 'tool_timeout', 2] });
    expect(result.progress).toMatchObject({ failedInfra: 2, failedModel: 0, requeued: 2 });
    const written = JSON.parse(readFileSync(predictions.file, 'utf8')) as Array<{
      id: string;
      steps: Array<{ calls: Array<{ result: string; error_code?: string }> }>;
    }>;
    expect(written.map((record) => record.id).sort()).toEqual(['fine', 'refused']);
    expect(written.find((record) => record.id === 'refused')?.steps[0]?.calls[0]).toMatchObject({
      result: '[Tool error] no such city',
      error_code: 'tool_error',
    });
    const statuses = episodesForRun(store, 'codes').map((row) => `${row.taskId} ${row.status} ${row.errorCode ?? ''}`.trim());
    expect(statuses.filter((line) => line.startsWith('upstream'))).toEqual([
      'upstream infra_failure upstream_rate_limited',
      'upstream infra_failure upstream_rate_limited',
    ]);
    store.close();
  });
});
