// Per-tier breakdown for task sets that carry a `tier` (the local suite: basic, chain,
// parallel, conditional, exception). Tiers come from the GT file and from prediction files;
// per-id step metrics and judge scores are averaged per model and tier.
import { existsSync } from 'node:fs';
import { meanSkippingMissing } from '../eval/final/scores.js';
import { loadJsonFile } from '../tasks/load-json.js';
import { tierSchema, type Tier } from '../tasks/schemas.js';
import { displayName } from './leaderboard.js';
import type { ModelResults } from './load-results.js';
import type { Table } from './tables.js';

/** Reads `id` → `tier` from any task-like JSON (array, or object keyed by id); other fields are ignored. */
function tiersFromRecords(raw: unknown, into: Map<string, Tier> = new Map()): Map<string, Tier> {
  const records = Array.isArray(raw)
    ? raw
    : raw && typeof raw === 'object'
      ? Object.entries(raw as Record<string, unknown>).map(([key, value]) => (value && typeof value === 'object' ? { id: key, ...value } : value))
      : [];
  for (const record of records) {
    if (!record || typeof record !== 'object') continue;
    const { id, tier } = record as { id?: unknown; tier?: unknown };
    const parsed = tierSchema.safeParse(tier);
    if ((typeof id === 'string' || typeof id === 'number') && parsed.success) into.set(String(id).trim(), parsed.data);
  }
  return into;
}

export function loadTiers(files: readonly string[]): Map<string, Tier> {
  const tiers = new Map<string, Tier>();
  for (const file of files) if (existsSync(file)) tiersFromRecords(loadJsonFile(file), tiers);
  return tiers;
}

export interface TierRow {
  model: string;
  tier: Tier;
  tasks: number;
  recall: number;
  precision: number;
  completion: number;
  grounding: number;
  /** Token F1 of the final reply against the GT's, a proxy (not a judge score). */
  proxyTokenF1: number;
}

export function buildTierRows(models: readonly ModelResults[], tiers: ReadonlyMap<string, Tier>): TierRow[] {
  if (tiers.size === 0) return [];
  const rows: TierRow[] = [];
  for (const results of models) {
    for (const tier of tierSchema.options) {
      const ids = [...tiers].filter(([, value]) => value === tier).map(([id]) => id);
      if (ids.length === 0) continue;
      const step = ids.map((id) => results.step?.perId.get(id));
      const judged = ids.map((id) => results.taskCompletion?.perId[id]);
      const proxied = ids.map((id) => results.proxy?.per_id[id]);
      if ([...step, ...judged, ...proxied].every((entry) => entry === undefined)) continue;
      rows.push({
        model: results.model,
        tier,
        tasks: ids.length,
        recall: meanSkippingMissing(step.map((entry) => entry?.recall)),
        precision: meanSkippingMissing(step.map((entry) => entry?.precision)),
        completion: meanSkippingMissing(judged.map((entry) => entry?.final)),
        grounding: meanSkippingMissing(judged.map((entry) => entry?.info_grounding?.final)),
        proxyTokenF1: meanSkippingMissing(proxied.map((entry) => entry?.token_f1)),
      });
    }
  }
  return rows;
}

export function tierTable(rows: readonly TierRow[]): Table | undefined {
  if (rows.length === 0) return undefined;
  return {
    id: 'tiers',
    title: 'Per-tier breakdown',
    header: [
      'model',
      'tier',
      'tasks',
      'recall (task mean)',
      'precision (task mean)',
      'completion (task mean)',
      'grounding (task mean)',
      'token_f1 (proxy, task mean)',
    ],
    rows: rows.map((row) => [displayName(row.model), row.tier, row.tasks, row.recall, row.precision, row.completion, row.grounding, row.proxyTokenF1]),
    note: 'Means over the tasks of each tier that have a score; tasks without a prediction are skipped here (see the coverage columns of the other tables). The last column is a proxy, not a judge score.',
  };
}
