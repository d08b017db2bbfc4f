// The batch manifest of merged shards: every worker wrote one for its slice; the merged runs of
// one batch id get one beside their merged prediction files, naming those files, so the readers
// of batches (m3 summary, m3 eval batch, m3 gate) take the sharded batch as one.
import path from 'node:path';
import { modelLabel } from '../llm/registry.js';
import { batchManifestFile } from '../results/layout.js';
import { writeBatchManifest, type BatchCell } from './batch-manifest.js';
import { trialLabel } from './conditions.js';

export interface MergedRunManifest {
  runId: string;
  batchId: string | null;
  manifest: Record<string, unknown>;
}

interface TrialFile {
  trial: number;
  seed?: number | null;
  predictions: string;
  manifest: string;
}

function field<T>(manifest: Record<string, unknown>, name: string, fallback: T): T {
  return (manifest[name] as T | undefined) ?? fallback;
}

function cellOf(run: MergedRunManifest, resultsDir: string): BatchCell {
  const manifest = run.manifest;
  const model = field(manifest, 'model', '');
  const label = field(manifest, 'modelLabel', modelLabel(model));
  const trials = field(manifest, 'trials', 1);
  return {
    model,
    modelLabel: modelLabel(model),
    condition: field<{ name?: string }>(manifest, 'condition', {}).name ?? 'baseline',
    label,
    runId: run.runId,
    trials: field<TrialFile[]>(manifest, 'trialFiles', []).map((entry) => ({
      trial: entry.trial,
      seed: entry.seed ?? null,
      label: trialLabel(label, entry.trial, trials),
      predictions: path.relative(resultsDir, entry.predictions),
      manifest: path.relative(resultsDir, entry.manifest),
    })),
  };
}

/** One batch manifest per batch id among the merged runs (those with prediction files), in that batch's folder; returns the files written. */
export function writeMergedBatchManifests(runs: readonly MergedRunManifest[], folderOf: (batchId: string) => string, storeFile: string): string[] {
  const byBatch = new Map<string, MergedRunManifest[]>();
  for (const run of runs) {
    if (!run.batchId || field<TrialFile[]>(run.manifest, 'trialFiles', []).length === 0) continue;
    byBatch.set(run.batchId, [...(byBatch.get(run.batchId) ?? []), run]);
  }
  return [...byBatch.entries()].map(([batchId, members]) => {
    const manifests = members.map((member) => member.manifest);
    const first = manifests[0] as Record<string, unknown>;
    const finished = manifests.map((manifest) => field<string | null>(manifest, 'finishedAt', null));
    const resultsDir = folderOf(batchId);
    const file = batchManifestFile(resultsDir, batchId);
    writeBatchManifest(file, {
      kind: 'm3bench-batch',
      version: 1,
      batchId,
      startedAt: manifests.map((manifest) => field(manifest, 'startedAt', '')).sort()[0] ?? '',
      finishedAt: finished.every((value) => value !== null) ? ((finished as string[]).sort().at(-1) ?? null) : null,
      tasksFile: field(first, 'tasksFile', ''),
      gtFile: field<string | null>(first, 'gtFile', null),
      trials: field(first, 'trials', 1),
      conditions: [...new Set(manifests.map((manifest) => field<{ name?: string }>(manifest, 'condition', {}).name ?? 'baseline'))],
      seed: field<number | null>(first, 'seed', null),
      store: path.relative(resultsDir, storeFile),
      cells: members.map((member) => cellOf(member, resultsDir)),
    });
    return file;
  });
}
