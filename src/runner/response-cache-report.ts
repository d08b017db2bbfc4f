// The model-response cache's share of a batch, for `m3 summary`: per cell run with `m3 run
// --cache`, how many model responses its trials' manifests say were served from the cache.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { BatchManifest } from './batch-manifest.js';

const manifestCacheSchema = z.object({
  responseCache: z.object({ policy: z.string(), served: z.number().int(), missed: z.number().int() }).optional(),
});

/** `model cache  <label>: N of M model responses served from the cache (policy P)` per cell that used it. */
export function responseCacheLines(batchFile: string, manifest: BatchManifest): string[] {
  const dir = path.dirname(batchFile);
  const lines: string[] = [];
  for (const cell of manifest.cells) {
    let served = 0;
    let total = 0;
    let policy: string | undefined;
    for (const trial of cell.trials) {
      const file = path.resolve(dir, trial.manifest);
      if (!existsSync(file)) continue;
      const parsed = manifestCacheSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      const cache = parsed.success ? parsed.data.responseCache : undefined;
      if (!cache) continue;
      policy = cache.policy;
      served += cache.served;
      total += cache.served + cache.missed;
    }
    if (policy) lines.push(`model cache   ${cell.label}: ${served} of ${total} model responses served from the cache (m3 run --cache ${policy})`);
  }
  return lines;
}
