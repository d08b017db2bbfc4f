// What the task metrics need from a run's manifest (`<predictions>.manifest.json`, written by
// src/runner/run-model.ts), read defensively because other layers add fields over time:
//   - the tasks that ended as infrastructure failures (status infra_failure or timeout, both
//     infrastructure in src/runner/failure.ts): excluded from every denominator, unless the
//     prediction file holds a record for them after all, and listed beside the scores;
//   - the run's settings that define a sweep cell: max rounds K (`options.maxStep`) and the
//     condition name(s) (`condition`, `conditions` or `options.condition`, whichever is there).
import { manifestFileFor } from '../../results/layout.js';
import { isInfraFailure, readManifestForEvaluation } from '../../results/run-manifest-read.js';

export { manifestFileFor };

export interface RunInfo {
  manifest: string | null;
  runId: string | null;
  model: string | null;
  maxStep: number | null;
  condition: string | null;
  /** Task ids excluded as infrastructure failures, with the recorded code. */
  infraFailures: Array<{ id: string; code: string; status: string }>;
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

export function readRunInfo(manifestFile: string | undefined): RunInfo {
  const empty: RunInfo = { manifest: null, runId: null, model: null, maxStep: null, condition: null, infraFailures: [] };
  const read = readManifestForEvaluation(manifestFile);
  if (read.state === 'absent') return empty;
  if (read.state === 'unreadable') return { ...empty, manifest: manifestFile ?? null };
  const { manifest } = read;
  const maxStep = manifest.options?.maxStep;
  return {
    manifest: manifestFile ?? null,
    runId: manifest.runId ?? null,
    model: manifest.model ?? null,
    maxStep: typeof maxStep === 'number' && Number.isFinite(maxStep) ? maxStep : null,
    condition: conditionOf(manifest.condition) ?? conditionOf(manifest.conditions) ?? conditionOf(manifest.options?.condition),
    infraFailures: read.failures
      .filter((failure) => isInfraFailure(failure))
      .map((failure) => ({ id: failure.taskId.trim(), code: failure.code ?? 'unknown', status: failure.status ?? 'infra_failure' })),
  };
}
