// The JSON text of every call's arguments as a task or prediction file writes it. JSON.parse
// turns the GT's `{"left": 1.0}` into `{left: 1}`, so an oracle replaying the parsed value would
// record `1` where the reference (Python) keeps the float `1.0`, and its serialised call, and its
// similarity to the GT, would differ. The loaders remember each call's text here, keyed by the
// parsed call object (no field is added to the record), and the replay driver sends that text as
// the model's argument text, which the prediction path keeps (src/llm/tool-arguments.ts).
import { readFileSync } from 'node:fs';
import { stringify as stringifyLossless } from 'lossless-json';
import { parseLosslessJson } from '../core/json-numbers.js';

const exactTexts = new WeakMap<object, string>();

/** The arguments' JSON text as the file wrote it, when the call came from a loader that kept it. */
export function exactArgumentsTextOf(call: object): string | undefined {
  return exactTexts.get(call);
}

type LooseRecord = { steps?: Array<{ calls?: Array<Record<string, unknown>> }> };

function recordList(raw: unknown, containerKeys: readonly string[]): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (raw && typeof raw === 'object') {
    for (const key of containerKeys) {
      const inner = (raw as Record<string, unknown>)[key];
      if (Array.isArray(inner)) return inner;
    }
    return Object.values(raw);
  }
  return [];
}

/**
 * Remembers the argument text of each call of `records` (parsed from `file`, same order); a file
 * whose records do not line up with the parsed ones is skipped (the parsed values then stand).
 */
export function rememberExactArguments(records: readonly LooseRecord[], file: string, containerKeys: readonly string[] = []): void {
  let lossless: unknown[];
  try {
    lossless = recordList(parseLosslessJson(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')), containerKeys);
  } catch {
    return;
  }
  if (lossless.length !== records.length) return;
  records.forEach((record, recordIndex) => {
    const exactSteps = (lossless[recordIndex] as LooseRecord | undefined)?.steps;
    record.steps?.forEach((step, stepIndex) => {
      step.calls?.forEach((call, callIndex) => {
        const exact = exactSteps?.[stepIndex]?.calls?.[callIndex];
        if (exact && typeof exact === 'object' && 'arguments' in exact && exact.arguments !== undefined) {
          const text = stringifyLossless(exact.arguments);
          if (text !== undefined) exactTexts.set(call, text);
        }
      });
    });
  });
}
