// The model-response cache's and the provider batch APIs' share of a batch, for `m3 summary`: per
// cell run with `m3 run --cache` or `--batch`, how many model responses its trials' manifests say
// were served from the cache or answered by a vendor batch job.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { BatchManifest } from './batch-manifest.js';

const manifestCacheSchema = z.object({
  responseCache: z.object({ policy: z.string(), served: z.number().int(), missed: z.number().int() }).optional(),
  providerBatch: z
    .object({
      jobs: z.number().int(),
      answered: z.number().int(),
      fallback: z.number().int(),
      resumed: z.number().int(),
      answeredCostListUsd: z.number().nullable(),
      answeredCostBatchUsd: z.number().nullable(),
    })
    .optional(),
});
type ManifestShares = z.output<typeof manifestCacheSchema>;

function sharesOfCell(dir: string, cell: BatchManifest['cells'][number]): ManifestShares[] {
  return cell.trials.flatMap((trial) => {
    const file = path.resolve(dir, trial.manifest);
    if (!existsSync(file)) return [];
    const parsed = manifestCacheSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? [parsed.data] : [];
  });
}

const usd = (value: number) => `$${value.toFixed(4)}`;

/** `provider batch  <label>: N of M model responses answered by batch jobs ...` per cell run with --batch. */
function providerBatchLine(label: string, shares: readonly ManifestShares[]): string | undefined {
  const batches = shares.flatMap((share) => (share.providerBatch ? [share.providerBatch] : []));
  // One collector serves all trials of a cell, so the counts add up: the last trial's manifest has the totals.
  const last = batches.at(-1);
  if (!last) return undefined;
  const { jobs, answered, fallback, resumed, answeredCostListUsd: list, answeredCostBatchUsd: batch } = last;
  const cost = list !== null && batch !== null ? `; their cost ${usd(batch)} at batch price (${usd(list)} at list price)` : '';
  return `provider batch ${label}: ${answered} of ${answered + fallback} batched model responses answered by ${jobs} batch job(s)${resumed > 0 ? ` (${resumed} picked up from pending jobs)` : ''}, ${fallback} sent the ordinary way${cost} (m3 run --batch)`;
}

/** `model cache  <label>: N of M model responses served from the cache (policy P)` per cell that used it. */
export function responseCacheLines(batchFile: string, manifest: BatchManifest): string[] {
  const dir = path.dirname(batchFile);
  const lines: string[] = [];
  for (const cell of manifest.cells) {
    let served = 0;
    let total = 0;
    let policy: string | undefined;
    const shares = sharesOfCell(dir, cell);
    for (const share of shares) {
      const cache = share.responseCache;
      if (!cache) continue;
      policy = cache.policy;
      served += cache.served;
      total += cache.served + cache.missed;
    }
    if (policy) lines.push(`model cache   ${cell.label}: ${served} of ${total} model responses served from the cache (m3 run --cache ${policy})`);
    const batched = providerBatchLine(cell.label, shares);
    if (batched) lines.push(batched);
  }
  return lines;
}
