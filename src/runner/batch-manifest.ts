// The batch manifest: what one `m3 run` invocation produced, tying its cells (model x
// condition) and their trials' files together, so `m3 summary`, `m3 report`, `m3 gate` and
// `m3 trends` can read a batch as one experiment. Written to `<results>/<batch>.batch.json`;
// file paths inside are relative to that folder, so a results folder can be moved or archived.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { formatIssues } from '../config/zod-issues.js';
import { ConfigError } from '../errors/index.js';
import { loadJsonFile } from '../tasks/load-json.js';
import { writeJsonAtomic } from '../tasks/write-json.js';
import { isBatchManifestName } from '../results/layout.js';

const trialSchema = z.object({
  trial: z.number().int().min(1),
  seed: z.number().int().nullable(),
  /** File label of the trial: `<cell>` or `<cell>.trial-<t>`; its evaluation folder is `<results>/<label>/`. */
  label: z.string().min(1),
  predictions: z.string().min(1),
  manifest: z.string().min(1),
});

const cellSchema = z.object({
  model: z.string().min(1),
  modelLabel: z.string().min(1),
  condition: z.string().min(1),
  label: z.string().min(1),
  runId: z.string().min(1),
  trials: z.array(trialSchema),
});

const batchManifestSchema = z.object({
  kind: z.literal('m3bench-batch'),
  version: z.literal(1),
  batchId: z.string().min(1),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  tasksFile: z.string(),
  gtFile: z.string().nullable(),
  trials: z.number().int().min(1),
  conditions: z.array(z.string()),
  /** The base seed (--seed) and each trial's; null: none was sent. */
  seed: z.number().int().nullable(),
  store: z.string().nullable(),
  cells: z.array(cellSchema),
  /** What `m3 run --estimate` would have said of this run (src/runner/estimate-run.ts), for m3 summary's estimate vs actual. */
  estimate: z
    .object({
      models: z.array(
        z
          .object({
            model: z.string(),
            tasks: z.number(),
            requests: z.number(),
            imagesPerRequest: z.number(),
            imageBytesPerRequest: z.number(),
            imageTokensPerRequest: z.number().nullable(),
            inputTokens: z.number(),
            outputTokens: z.number(),
            costUsd: z.number().nullable(),
          })
          .loose(),
      ),
      judges: z.array(z.object({ judge: z.string(), requests: z.number(), inputTokens: z.number(), outputTokens: z.number(), costUsd: z.number().nullable() })),
      assumptions: z.array(z.string()),
    })
    .optional(),
  /** `m3 run --max-cost`: the budget, what the run paid, whether it stopped scheduling (src/runner/run-cost.ts). */
  maxCost: z.object({ limitUsd: z.number(), spentUsd: z.number(), reached: z.boolean(), note: z.string().optional() }).optional(),
});

export type BatchManifest = z.output<typeof batchManifestSchema>;
export type BatchCell = z.output<typeof cellSchema>;

export function writeBatchManifest(file: string, manifest: BatchManifest): void {
  writeJsonAtomic(file, manifest);
}

export function loadBatchManifest(file: string): BatchManifest {
  const parsed = batchManifestSchema.safeParse(loadJsonFile(file));
  if (!parsed.success) throw new ConfigError(`not an m3bench batch manifest:\n${formatIssues(file, parsed.error.issues)}`);
  return parsed.data;
}

/** Resolves a path recorded in a batch manifest against the manifest's folder. */
export function batchPath(file: string, recorded: string): string {
  return path.resolve(path.dirname(file), recorded);
}

function manifestFiles(dir: string, depth: number): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isFile() && isBatchManifestName(entry.name)) return [file];
    return entry.isDirectory() && depth > 0 ? manifestFiles(file, depth - 1) : [];
  });
}

/**
 * Batch manifests in a folder (and, with `depth` > 0, in its sub-folders that deep), newest
 * first (by their startedAt, then name).
 */
export function findBatchManifests(dir: string, depth = 0): Array<{ file: string; manifest: BatchManifest }> {
  return manifestFiles(dir, depth)
    .map((file) => ({ file, manifest: loadBatchManifest(file) }))
    .sort((a, b) => b.manifest.startedAt.localeCompare(a.manifest.startedAt) || b.file.localeCompare(a.file));
}
