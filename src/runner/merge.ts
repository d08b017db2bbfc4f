// Combines shard prediction files into one. Shards are disjoint by construction, so a task in two
// inputs means two runs were mixed up: refused, naming both files. When the inputs carry the
// manifest the runner writes beside each (`<file>.manifest.json`), they must be distinct shards
// of one run (src/runner/merge-manifest.ts), and the merged manifest is written beside the output.
import { existsSync } from 'node:fs';
import { ConfigError } from '../errors/index.js';
import { loadJsonFile } from '../tasks/load-json.js';
import { loadPredictions } from '../tasks/load.js';
import type { Prediction } from '../tasks/schemas.js';
import { writeJsonAtomic } from '../tasks/write-json.js';
import { mergeShardManifests, parseShardManifest } from './merge-manifest.js';

export interface MergeResult {
  output: string;
  records: number;
  perInput: Array<{ file: string; records: number }>;
  /** The merged manifest, when the inputs had manifests. */
  manifest?: string;
}

/** The manifest the runner writes beside a prediction file. */
export function manifestFileOf(predictionFile: string): string {
  return predictionFile.replace(/(\.json)?$/i, '.manifest.json');
}

/** The merged run's manifest from the inputs' manifests; undefined when none has one; refuses a mix. */
function mergedManifest(inputs: readonly string[]): Record<string, unknown> | undefined {
  const present = inputs.filter((file) => existsSync(manifestFileOf(file)));
  if (present.length === 0) return undefined;
  const missing = inputs.find((file) => !present.includes(file));
  if (missing)
    throw new ConfigError(
      `m3 merge: ${present[0]} has a manifest beside it but ${missing} has none (${manifestFileOf(missing)}); merge shards of one run, each with its manifest`,
    );
  return mergeShardManifests(present.map((file) => parseShardManifest(loadJsonFile(manifestFileOf(file)), manifestFileOf(file))));
}

export function mergePredictionFiles(inputs: readonly string[], output: string): MergeResult {
  if (inputs.length === 0) throw new ConfigError('m3 merge: name at least one prediction file to merge');
  const manifest = mergedManifest(inputs);
  const merged = new Map<string, { record: Prediction; file: string }>();
  const perInput: MergeResult['perInput'] = [];
  for (const file of inputs) {
    const records = loadPredictions(file);
    perInput.push({ file, records: records.length });
    for (const record of records) {
      const earlier = merged.get(record.id);
      if (earlier) throw new ConfigError(`m3 merge: task ${record.id} appears in both ${earlier.file} and ${file}; shards must not overlap`);
      merged.set(record.id, { record, file });
    }
  }
  const sorted = [...merged.values()].map((entry) => entry.record).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  writeJsonAtomic(output, sorted);
  if (!manifest) return { output, records: sorted.length, perInput };
  const manifestFile = manifestFileOf(output);
  writeJsonAtomic(manifestFile, manifest);
  return { output, records: sorted.length, perInput, manifest: manifestFile };
}
