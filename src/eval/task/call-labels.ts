// The call-level label of every predicted call (success, resource_not_found, invalid_arguments,
// unknown_tool, unclassified), indexed like the step trajectory (flat, step by step). Read from
// the call evaluator's `callanalysis.json` when it is there (it may hold judge decisions), else
// classified here with the call evaluator's own rules (src/eval/call/evaluate.ts, no judge).
import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { ToolCatalog } from '../call/catalog.js';
import { evaluateCalls } from '../call/evaluate.js';
import { loadJsonFile } from '../../tasks/load-json.js';
import type { Prediction } from '../../tasks/schemas.js';

export interface CallLabelInfo {
  label: string;
  detail?: string;
  /** Unclassified because of an infrastructure failure: left out of every call denominator. */
  infrastructure: boolean;
}

export interface CallLabels {
  byId: Map<string, Array<CallLabelInfo | undefined>>;
  source: 'callanalysis' | 'rules';
  file: string | undefined;
}

const perCallSchema = z.array(
  z
    .object({
      id: z.union([z.string(), z.number()]).transform((id) => String(id).trim()),
      step: z.number().int(),
      index: z.number().int().nonnegative(),
      label: z.string(),
      detail: z.string().optional().catch(undefined),
      reason: z.string().optional().catch(undefined),
    })
    .loose(),
);

type PerCall = z.output<typeof perCallSchema>[number];

/** (step number as recorded, index in step) -> flat index, for one prediction. */
function flatIndexOf(prediction: Prediction): Map<string, number> {
  const positions = new Map<string, number>();
  let flat = 0;
  prediction.steps.forEach((step, stepIndex) => {
    step.calls.forEach((_, index) => {
      const key = `${step.step ?? stepIndex + 1}:${index}`;
      if (!positions.has(key)) positions.set(key, flat);
      flat += 1;
    });
  });
  return positions;
}

function toLabels(predictions: ReadonlyMap<string, Prediction>, records: readonly PerCall[]): Map<string, Array<CallLabelInfo | undefined>> {
  const byId = new Map<string, Array<CallLabelInfo | undefined>>();
  const positions = new Map([...predictions].map(([id, prediction]) => [id, flatIndexOf(prediction)]));
  for (const record of records) {
    const flat = positions.get(record.id)?.get(`${record.step}:${record.index}`);
    if (flat === undefined) continue;
    const labels = byId.get(record.id) ?? [];
    labels[flat] = {
      label: record.label,
      ...(record.detail ? { detail: record.detail } : {}),
      // A mocked return stands in for a call that failed for an infrastructure reason.
      infrastructure: (record.label === 'unclassified' && record.reason === 'infrastructure') || record.label === 'mocked',
    };
    byId.set(record.id, labels);
  }
  return byId;
}

export async function loadCallLabels(
  predictions: ReadonlyMap<string, Prediction>,
  callFile: string | undefined,
  catalog: ToolCatalog | undefined,
): Promise<CallLabels> {
  if (callFile && existsSync(callFile)) {
    const raw = loadJsonFile(callFile);
    const perCall = perCallSchema.safeParse(raw && typeof raw === 'object' ? (raw as { per_call?: unknown }).per_call : undefined);
    if (perCall.success) return { byId: toLabels(predictions, perCall.data), source: 'callanalysis', file: callFile };
  }
  const analysis = await evaluateCalls([...predictions.values()], catalog ? { catalog } : {});
  return { byId: toLabels(predictions, perCallSchema.parse(analysis.per_call)), source: 'rules', file: undefined };
}
