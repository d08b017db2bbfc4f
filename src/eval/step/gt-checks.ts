// Ground-truth anomalies the reference silently tolerates and GT steps that a run
// cannot reproduce in one round because they have more parallel calls than the round cap.
// Reported in results_eval.json and as warnings; they never stop an evaluation.
import type { Duplicate } from '../../tasks/load.js';
import type { GtTask } from '../../tasks/schemas.js';

export interface GtChecks {
  duplicate_ids: Duplicate[];
  odd_step_numbers: Array<{ id: string; steps: Array<number | null> }>;
  calls_without_arguments: Array<{ id: string; step_index: number; call_index_in_step: number }>;
  calls_without_name: Array<{ id: string; step_index: number; call_index_in_step: number }>;
  stray_fields: Array<{ id: string; fields: string[] }>;
  round_cap: number;
  steps_over_round_cap: Array<{ id: string; step_index: number; calls: number }>;
}

const predictionOnlyFields = ['num_step', 'max_num_concurrent', 'dialogue'];

export function checkGroundTruth(records: readonly GtTask[], duplicates: Duplicate[], roundCap: number): GtChecks {
  const checks: GtChecks = {
    duplicate_ids: duplicates,
    odd_step_numbers: [],
    calls_without_arguments: [],
    calls_without_name: [],
    stray_fields: [],
    round_cap: roundCap,
    steps_over_round_cap: [],
  };
  for (const record of records) {
    const numbers = record.steps.map((step) => (typeof step.step === 'number' ? step.step : null));
    if (numbers.some((value, index) => value !== index + 1)) checks.odd_step_numbers.push({ id: record.id, steps: numbers });
    const stray = predictionOnlyFields.filter((field) => Object.hasOwn(record, field));
    if (stray.length > 0) checks.stray_fields.push({ id: record.id, fields: stray });
    record.steps.forEach((step, stepIndex) => {
      if (roundCap > 0 && step.calls.length > roundCap) checks.steps_over_round_cap.push({ id: record.id, step_index: stepIndex, calls: step.calls.length });
      step.calls.forEach((call, callIndex) => {
        const location = { id: record.id, step_index: stepIndex, call_index_in_step: callIndex };
        if (!Object.hasOwn(call, 'arguments')) checks.calls_without_arguments.push(location);
        if (typeof call.name !== 'string' || call.name.trim() === '') checks.calls_without_name.push(location);
      });
    });
  }
  return checks;
}

/** One line per kind of anomaly, for stderr. */
export function describeGtChecks(checks: GtChecks): string[] {
  const lines: string[] = [];
  if (checks.duplicate_ids.length > 0) {
    lines.push(`GT has ${checks.duplicate_ids.length} duplicated id(s), the last record wins: ${checks.duplicate_ids.map((entry) => entry.id).join(', ')}`);
  }
  if (checks.odd_step_numbers.length > 0)
    lines.push(
      `GT step numbers are not 1..n in ${checks.odd_step_numbers.length} task(s) (array order is used): ${checks.odd_step_numbers.map((entry) => entry.id).join(', ')}`,
    );
  if (checks.calls_without_arguments.length > 0)
    lines.push(
      `GT has ${checks.calls_without_arguments.length} call(s) without "arguments" (embedded as null): ${checks.calls_without_arguments.map((entry) => `${entry.id}#${entry.step_index}.${entry.call_index_in_step}`).join(', ')}`,
    );
  if (checks.calls_without_name.length > 0) lines.push(`GT has ${checks.calls_without_name.length} call(s) without a tool name; they can never be matched`);
  if (checks.stray_fields.length > 0)
    lines.push(
      `GT records carry prediction-only fields (ignored): ${checks.stray_fields.map((entry) => `${entry.id} (${entry.fields.join(', ')})`).join('; ')}`,
    );
  if (checks.steps_over_round_cap.length > 0) {
    lines.push(
      `${checks.steps_over_round_cap.length} GT step(s) have more parallel calls than the round cap of ${checks.round_cap}; step coherence and merge purity of these tasks are capped for runs with that cap: ${checks.steps_over_round_cap.map((entry) => `${entry.id} (${entry.calls})`).join(', ')}`,
    );
  }
  return lines;
}
