// What the task metrics need from a run's manifest (`<predictions>.manifest.json`, written by
// src/runner/run-model.ts), read defensively because other layers add fields over time:
//   - the tasks that ended as infrastructure failures (status infra_failure or timeout, both
//     infrastructure in src/runner/failure.ts): excluded from every denominator, unless the
//     prediction file holds a record for them after all, and listed beside the scores;
//   - the run's settings that define a sweep cell: max rounds K (`options.maxStep`) and the
//     condition name(s) (`condition`, `conditions` or `options.condition`, whichever is there).
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { loadJsonFile } from '../../tasks/load-json.js';

export interface RunInfo {
  manifest: string | null;
  runId: string | null;
  model: string | null;
  maxStep: number | null;
  condition: string | null;
  /** Task ids excluded as infrastructure failures, with the recorded code. */
  infraFailures: Array<{ id: string; code: string; status: string }>;
}

const failureSchema = z.object({ taskId: z.union([z.string(), z.number()]).transform(String), status: z.string(), code: z.string().catch('unknown') }).loose();

const manifestSchema = z
  .object({
    runId: z.string().optional().catch(undefined),
    model: z.string().optional().catch(undefined),
    condition: z.unknown().optional(),
    conditions: z.unknown().optional(),
    options: z.record(z.string(), z.unknown()).optional().catch(undefined),
    failures: z.array(z.unknown()).optional().catch(undefined),
  })
  .loose();

/** The manifest path `m3 run` writes beside a prediction file. */
export function manifestFileFor(predFile: string): string {
  return predFile.replace(/\.json$/i, '.manifest.json');
}

function conditionOf(value: unknown): string | null {
  // The runner writes `{name, parts}` (src/runner/conditions.ts); its baseline is no condition.
  if (value && typeof value === 'object' && !Array.isArray(value) && 'name' in value) {
    const name = (value as { name: unknown }).name;
    return typeof name === 'string' && name !== 'baseline' ? conditionOf(name) : null;
  }
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (Array.isArray(value)) {
    const names = value.filter((item): item is string => typeof item === 'string' && item.trim() !== '');
    return names.length > 0 ? [...names].sort().join('+') : null;
  }
  return null;
}

/** Statuses the runner records for failures that are not the model's doing. */
const infraStatuses = new Set(['infra_failure', 'timeout']);

export function readRunInfo(manifestFile: string | undefined): RunInfo {
  const empty: RunInfo = { manifest: null, runId: null, model: null, maxStep: null, condition: null, infraFailures: [] };
  if (!manifestFile || !existsSync(manifestFile)) return empty;
  const parsed = manifestSchema.safeParse(loadJsonFile(manifestFile));
  if (!parsed.success) return { ...empty, manifest: manifestFile };
  const manifest = parsed.data;
  const maxStep = manifest.options?.maxStep;
  const infraFailures: RunInfo['infraFailures'] = [];
  for (const raw of manifest.failures ?? []) {
    const failure = failureSchema.safeParse(raw);
    if (failure.success && infraStatuses.has(failure.data.status))
      infraFailures.push({ id: failure.data.taskId.trim(), code: failure.data.code, status: failure.data.status });
  }
  return {
    manifest: manifestFile,
    runId: manifest.runId ?? null,
    model: manifest.model ?? null,
    maxStep: typeof maxStep === 'number' && Number.isFinite(maxStep) ? maxStep : null,
    condition: conditionOf(manifest.condition) ?? conditionOf(manifest.conditions) ?? conditionOf(manifest.options?.condition),
    infraFailures,
  };
}
