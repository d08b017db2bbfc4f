// Call classification from recorded error codes: a real episode against real fixture servers is
// written as a prediction file by our own writer (toPrediction), read back, and classified. Codes
// decide where they exist; the same record without its codes falls back to text patterns.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toPrediction } from '../../../src/agent/to-prediction.js';
import { PREDICTION_CODED_FIELD, PREDICTION_ERROR_CODE_FIELD } from '../../../src/core/tool-result-contract.js';
import { evaluateCalls } from '../../../src/eval/call/evaluate.js';
import type { PredictionRecord } from '../../../src/tasks/schemas.js';
import { replayOneRound, roundTripPrediction, useHost, testAgentOptions, withoutCodes } from '../../support/agent-kit.js';
import { fixtureSpec } from '../../support/fixture-servers/fixture-spec.js';

const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-coded-'));
const host = useHost(() => [fixtureSpec('echo')]);

const calls = [
  { name: 'echo/echo', arguments: { text: 'Error: the tool answered this on purpose' } },
  { name: 'echo/fail', arguments: { message: 'something odd happened' } },
  { name: 'nowhere/tool', arguments: {} },
  { name: 'echo/echo', arguments: { text: 42 } },
];

async function recordedPrediction(): Promise<PredictionRecord> {
  const trace = await replayOneRound({ id: 'C1', calls, cwd: workDir, workspace: workDir }, { host: host(), options: testAgentOptions([workDir]) });
  return toPrediction({ id: 'C1' }, 'q', trace);
}

describe('call classification from recorded codes', () => {
  it('records each failed call with its code, and the record says so', async () => {
    const prediction = await recordedPrediction();
    expect(prediction[PREDICTION_CODED_FIELD]).toBe(true);
    expect(prediction.steps[0]?.calls.map((call) => call[PREDICTION_ERROR_CODE_FIELD])).toEqual([undefined, 'tool_error', 'unknown_tool', 'invalid_arguments']);
  });

  it('classifies from the codes, and from the text only when a file has none', async () => {
    const prediction = await recordedPrediction();
    const coded = await evaluateCalls(roundTripPrediction(workDir, prediction));
    expect(coded.per_call.map((record) => [record.label, record.rule])).toEqual([
      ['success', 'normal_result'],
      ['invalid_arguments', 'unexplained_error'],
      ['unknown_tool', 'error_code'],
      ['invalid_arguments', 'error_code'],
    ]);
    // The same record as an older file would have it: a success whose text starts with
    // "Error:" then looks like an error.
    const fromText = await evaluateCalls(roundTripPrediction(workDir, withoutCodes(prediction)));
    expect(fromText.per_call.map((record) => [record.label, record.rule])).toEqual([
      ['invalid_arguments', 'unexplained_error'],
      ['invalid_arguments', 'unexplained_error'],
      ['unknown_tool', 'result_unknown_tool'],
      ['invalid_arguments', 'message'],
    ]);
  });

  it('leaves calls with an infrastructure code unclassified, whatever their text says', async () => {
    const record = {
      id: 'C2',
      question: 'q',
      final_reply: '',
      dialogue: [],
      [PREDICTION_CODED_FIELD]: true,
      steps: [
        {
          step: 1,
          calls: [
            {
              name: 'web/search',
              arguments: { q: 'x' },
              result: '[Tool error] invalid value for field q (HTTP 400)',
              [PREDICTION_ERROR_CODE_FIELD]: 'upstream_rate_limited',
            },
          ],
        },
      ],
    };
    const analysis = await evaluateCalls(roundTripPrediction(workDir, record));
    expect(analysis.per_call[0]).toMatchObject({ label: 'unclassified', reason: 'infrastructure', rule: 'error_code', detail: 'upstream_rate_limited' });
  });
});
