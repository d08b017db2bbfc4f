// Call classification from recorded error codes: a real episode against real fixture servers is
// written as a prediction file by our own writer (toPrediction), read back, and classified. Codes
// decide where they exist; the same record without its codes falls back to text patterns.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEpisode } from '../../../src/agent/episode.js';
import type { AgentOptions } from '../../../src/agent/options.js';
import { toPrediction } from '../../../src/agent/to-prediction.js';
import { PREDICTION_CODED_FIELD, PREDICTION_ERROR_CODE_FIELD } from '../../../src/core/tool-result-contract.js';
import { evaluateCalls } from '../../../src/eval/call/evaluate.js';
import { createReplayDriver } from '../../../src/llm/replay/driver.js';
import { McpHost } from '../../../src/mcp/index.js';
import { loadPredictions } from '../../../src/tasks/load.js';
import type { PredictionRecord } from '../../../src/tasks/schemas.js';
import { fixtureSpec } from '../../support/fixture-servers/fixture-spec.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-coded-'));
let host: McpHost;

const options: AgentOptions = {
  maxStep: 2, maxConcurrent: 6, topTools: 0, maxNewTokens: 100, mergePrepareWork: true, skipEndStage: true, instructionRole: 'user',
  toolResultMaxChars: 0, imagePolicy: { recodeOverKb: 0, maxEdge: 0 }, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 },
  toolCallTimeoutMs: 10_000, imageRoots: [workDir],
};

beforeAll(async () => {
  host = await McpHost.start([fixtureSpec('echo')], { requireAll: true, startupTimeoutMs: 90_000, logger: silent });
}, 120_000);
afterAll(async () => {
  await host?.close();
});

const calls = [
  { name: 'echo/echo', arguments: { text: 'Error: the tool answered this on purpose' } },
  { name: 'echo/fail', arguments: { message: 'something odd happened' } },
  { name: 'nowhere/tool', arguments: {} },
  { name: 'echo/echo', arguments: { text: 42 } },
];

async function recordedPrediction(): Promise<PredictionRecord> {
  const task = { id: 'C1', question: 'q', final_reply: 'done', steps: [{ step: 1, calls }] };
  const driver = await createReplayDriver('gt', { env: {}, groundTruth: new Map([['C1', task]]), timeoutMs: 0 });
  const trace = await runEpisode(
    { taskId: 'C1', question: 'q', userText: 'q', images: [], cwd: workDir, callContext: { taskId: 'C1', workspace: workDir } },
    { driver, host, options },
  );
  return toPrediction({ id: 'C1' }, 'q', trace);
}

function roundTrip(record: unknown) {
  const file = path.join(workDir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify([record]));
  return loadPredictions(file);
}

describe('call classification from recorded codes', () => {
  it('records each failed call with its code, and the record says so', async () => {
    const prediction = await recordedPrediction();
    expect(prediction[PREDICTION_CODED_FIELD]).toBe(true);
    expect(prediction.steps[0]?.calls.map((call) => call[PREDICTION_ERROR_CODE_FIELD])).toEqual([undefined, 'tool_error', 'unknown_tool', 'invalid_arguments']);
  });

  it('classifies from the codes, and from the text only when a file has none', async () => {
    const prediction = await recordedPrediction();
    const coded = await evaluateCalls(roundTrip(prediction));
    expect(coded.per_call.map((record) => [record.label, record.rule])).toEqual([
      ['success', 'normal_result'],
      ['invalid_arguments', 'unexplained_error'],
      ['unknown_tool', 'error_code'],
      ['invalid_arguments', 'error_code'],
    ]);
    // The same record as an older file would have it: no codes, no marker. A success whose
    // text starts with "Error:" then looks like an error.
    const { [PREDICTION_CODED_FIELD]: _marker, ...uncoded } = prediction;
    const stripped = { ...uncoded, steps: uncoded.steps.map((step) => ({ ...step, calls: step.calls.map(({ [PREDICTION_ERROR_CODE_FIELD]: _code, ...call }) => call) })) };
    const fromText = await evaluateCalls(roundTrip(stripped));
    expect(fromText.per_call.map((record) => [record.label, record.rule])).toEqual([
      ['invalid_arguments', 'unexplained_error'],
      ['invalid_arguments', 'unexplained_error'],
      ['unknown_tool', 'result_unknown_tool'],
      ['invalid_arguments', 'message'],
    ]);
  });

  it('leaves calls with an infrastructure code unclassified, whatever their text says', async () => {
    const record = {
      id: 'C2', question: 'q', final_reply: '', dialogue: [], [PREDICTION_CODED_FIELD]: true,
      steps: [{ step: 1, calls: [{ name: 'web/search', arguments: { q: 'x' }, result: '[Tool error] invalid value for field q (HTTP 400)', [PREDICTION_ERROR_CODE_FIELD]: 'upstream_rate_limited' }] }],
    };
    const analysis = await evaluateCalls(roundTrip(record));
    expect(analysis.per_call[0]).toMatchObject({ label: 'unclassified', reason: 'infrastructure', rule: 'error_code', detail: 'upstream_rate_limited' });
  });
});
