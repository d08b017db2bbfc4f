// Combines shard outputs into one prediction file. The same id in two shards is an error
// unless both records are identical: shards are disjoint by construction, so a clash means
// two runs were mixed up.
import { isDeepStrictEqual } from 'node:util';
import { ConfigError } from '../errors/index.js';
import { loadPredictions } from '../tasks/load.js';
import type { Prediction } from '../tasks/schemas.js';
import { writeJsonAtomic } from '../tasks/write-json.js';

export interface MergeResult {
  output: string;
  records: number;
  perInput: Array<{ file: string; records: number }>;
}

export function mergePredictionFiles(inputs: readonly string[], output: string): MergeResult {
  if (inputs.length === 0) throw new ConfigError('m3 merge: name at least one prediction file to merge');
  const merged = new Map<string, { record: Prediction; file: string }>();
  const perInput: MergeResult['perInput'] = [];
  for (const file of inputs) {
    const records = loadPredictions(file);
    perInput.push({ file, records: records.length });
    for (const record of records) {
      const earlier = merged.get(record.id);
      if (earlier && !isDeepStrictEqual(earlier.record, record)) {
        throw new ConfigError(`m3 merge: task ${record.id} appears in both ${earlier.file} and ${file} with different content`);
      }
      merged.set(record.id, { record, file });
    }
  }
  const sorted = [...merged.values()].map((entry) => entry.record).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  writeJsonAtomic(output, sorted);
  return { output, records: sorted.length, perInput };
}
