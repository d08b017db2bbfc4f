// Call classification of two results that used to be charged as invalid arguments: our own
// servers' "file not found" error (`cannot read image "...": ENOENT`, here from the real
// imagesorcery-mcp server) is resource_not_found, and a successful result whose text happens to
// start with "Error:" is a success when the record says the call succeeded.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEpisode } from '../../src/agent/episode.js';
import type { AgentOptions } from '../../src/agent/options.js';
import { toPrediction } from '../../src/agent/to-prediction.js';
import { loadProjectConfig } from '../../src/config/index.js';
import { PREDICTION_CODED_FIELD, PREDICTION_ERROR_CODE_FIELD } from '../../src/core/tool-result-contract.js';
import { evaluateCalls } from '../../src/eval/call/evaluate.js';
import { createReplayDriver } from '../../src/llm/replay/driver.js';
import { McpHost } from '../../src/mcp/host.js';
import { loadPredictions } from '../../src/tasks/load.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { repoRoot } from '../support/shared-assets.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-classes-'));
let host: McpHost;

const options: AgentOptions = {
  maxStep: 2, maxConcurrent: 4, topTools: 0, maxNewTokens: 100, mergePrepareWork: true, skipEndStage: true, instructionRole: 'user',
  toolResultMaxChars: 0, imagePolicy: { recodeOverKb: 0, maxEdge: 0 }, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 },
  toolCallTimeoutMs: 30_000, imageRoots: [path.join(repoRoot, 'media')],
};

beforeAll(async () => {
  const imageops = loadProjectConfig().servers.filter((spec) => spec.name === 'imagesorcery-mcp');
  host = await McpHost.start([...imageops, fixtureSpec('echo')], { requireAll: true, startupTimeoutMs: 120_000, logger: silent });
}, 180_000);
afterAll(async () => {
  await host?.close();
});

function roundTrip(record: unknown) {
  const file = path.join(workDir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify([record]));
  return loadPredictions(file);
}

describe('classification of not-found errors and "Error:" successes', () => {
  it('labels them resource_not_found and success', async () => {
    const calls = [
      { name: 'imagesorcery-mcp/grayscale', arguments: { input_path: './media/local/no-such-photo.png' } },
      { name: 'echo/echo', arguments: { text: 'Error: 0 warnings, the build is clean' } },
    ];
    const task = { id: 'K1', question: 'q', final_reply: 'done', steps: [{ step: 1, calls }] };
    const driver = await createReplayDriver('gt', { env: {}, groundTruth: new Map([['K1', task]]), timeoutMs: 0 });
    const trace = await runEpisode({ taskId: 'K1', question: 'q', userText: 'q', images: [], cwd: repoRoot, callContext: { taskId: 'K1', workspace: workDir } }, { driver, host, options });
    const prediction = toPrediction({ id: 'K1' }, 'q', trace);
    expect(prediction.steps[0]?.calls[0]?.result).toBe('[Tool error] cannot read image "./media/local/no-such-photo.png": ENOENT');

    const coded = await evaluateCalls(roundTrip(prediction));
    expect(coded.per_call.map((record) => record.label)).toEqual(['resource_not_found', 'success']);
    // From the text alone (no codes, as older files): the not-found error is still not-found.
    const { [PREDICTION_CODED_FIELD]: _marker, ...uncoded } = prediction;
    const stripped = { ...uncoded, steps: uncoded.steps.map((step) => ({ ...step, calls: step.calls.map(({ [PREDICTION_ERROR_CODE_FIELD]: _code, ...call }) => call) })) };
    const fromText = await evaluateCalls(roundTrip(stripped));
    expect(fromText.per_call[0]?.label).toBe('resource_not_found');
  });
});
