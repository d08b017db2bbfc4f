// How much of a run's predictions rests on mocked tool returns or placeholder images, read from
// the prediction file (the per-call `fallback` field, src/core/tool-result-contract.ts, and the
// per-record `placeholder_images` field, src/media/missing-image-stand-in.ts) and its run
// manifest. The one computation every evaluation output (`m3bench_mocked`), `m3 summary` and
// `m3 report` use, so a score that rests on mocked returns is never read as a clean one.
import { existsSync } from 'node:fs';
import { PREDICTION_FALLBACK_FIELD } from '../core/tool-result-contract.js';
import { PREDICTION_PLACEHOLDER_FIELD } from '../media/missing-image-stand-in.js';
import { loadJsonFile } from '../tasks/load-json.js';
import { manifestFileFor } from './layout.js';

export interface MockedShare {
  model: string;
  /** What the run manifest says (undefined when there is no manifest). */
  fallbackEnabled: boolean | undefined;
  calls: number;
  mockedCalls: number;
  tasks: number;
  mockedTasks: number;
  byTier: Record<string, number>;
  /** Tasks whose record lists images replaced by placeholders. */
  placeholderTasks: number;
  /**
   * Model responses that were not fresh synchronous answers, from the run manifest: served by the
   * model-response cache (`m3 run --cache`) out of the cache's lookups, and answered by a vendor
   * batch job (`m3 run --batch`) out of the requests submitted to one. Undefined without a manifest.
   */
  modelResponses?: { servedFromCache: number; cacheLookups: number; batched: number; batchSubmitted: number };
}

interface ManifestCounts {
  fallback?: { enabled?: unknown };
  responseCache?: { served?: unknown; missed?: unknown };
  providerBatch?: { answered?: unknown; submitted?: unknown; resumed?: unknown };
}

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** Cache-served and batch-answered model responses as a run manifest records them (zeros when it used neither). */
export function modelResponsesOf(manifest: ManifestCounts): NonNullable<MockedShare['modelResponses']> {
  const cache = manifest.responseCache;
  const batch = manifest.providerBatch;
  return {
    servedFromCache: count(cache?.served),
    cacheLookups: count(cache?.served) + count(cache?.missed),
    batched: count(batch?.answered),
    batchSubmitted: count(batch?.submitted) + count(batch?.resumed),
  };
}

function records(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  return raw && typeof raw === 'object' ? Object.values(raw) : [];
}

function callsOf(record: unknown): unknown[] {
  const steps = (record as { steps?: unknown } | null)?.steps;
  return Array.isArray(steps) ? steps.flatMap((step) => ((step as { calls?: unknown })?.calls as unknown[] | undefined) ?? []) : [];
}

/** The fallback tier that served a prediction call, undefined for a call the layer did not serve. */
export function mockedTierOf(call: unknown): string | undefined {
  const fallback = (call as Record<string, unknown> | null)?.[PREDICTION_FALLBACK_FIELD];
  const tier = (fallback as { tier?: unknown } | undefined)?.tier;
  return typeof tier === 'string' ? tier : undefined;
}

export function mockedShare(model: string, predictionFile: string, manifestFile: string): MockedShare | undefined {
  if (!existsSync(predictionFile)) return undefined;
  const manifest = existsSync(manifestFile) ? (loadJsonFile(manifestFile) as ManifestCounts) : undefined;
  const share: MockedShare = {
    model,
    fallbackEnabled: manifest ? manifest.fallback?.enabled === true : undefined,
    calls: 0,
    mockedCalls: 0,
    tasks: 0,
    mockedTasks: 0,
    byTier: {},
    placeholderTasks: 0,
    ...(manifest ? { modelResponses: modelResponsesOf(manifest) } : {}),
  };
  for (const record of records(loadJsonFile(predictionFile))) {
    const tiers = callsOf(record).map(mockedTierOf);
    share.tasks += 1;
    const placeholders = (record as Record<string, unknown> | null)?.[PREDICTION_PLACEHOLDER_FIELD];
    if (Array.isArray(placeholders) && placeholders.length > 0) share.placeholderTasks += 1;
    share.calls += tiers.length;
    const mocked = tiers.filter((tier): tier is string => tier !== undefined);
    share.mockedCalls += mocked.length;
    if (mocked.length > 0) share.mockedTasks += 1;
    for (const tier of mocked) share.byTier[tier] = (share.byTier[tier] ?? 0) + 1;
  }
  return share;
}

export const MOCKED_LABEL_KEY = 'm3bench_mocked';

/** The label every evaluation output carries beside its scores (shares are fractions in [0, 1]). */
export interface MockedLabel {
  calls: number;
  mocked_calls: number;
  mocked_call_share: number;
  tasks: number;
  mocked_tasks: number;
  mocked_task_share: number;
  placeholder_tasks: number;
  placeholder_task_share: number;
  by_tier: Record<string, number>;
  /** The run manifest's `fallback.enabled` (null: no manifest beside the predictions). */
  fallback_enabled: boolean | null;
  /**
   * Model responses served by the model-response cache (of its lookups) and answered by a vendor
   * batch job (of the requests submitted to one), from the run manifest; null without a manifest.
   */
  model_responses: { served_from_cache: number; cache_lookups: number; batched: number; batch_submitted: number } | null;
}

const fraction = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

export function mockedLabelFor(predFile: string): MockedLabel {
  const share = mockedShare('', predFile, manifestFileFor(predFile));
  const counts = share ?? { calls: 0, mockedCalls: 0, tasks: 0, mockedTasks: 0, placeholderTasks: 0, byTier: {}, fallbackEnabled: undefined };
  return {
    calls: counts.calls,
    mocked_calls: counts.mockedCalls,
    mocked_call_share: fraction(counts.mockedCalls, counts.calls),
    tasks: counts.tasks,
    mocked_tasks: counts.mockedTasks,
    mocked_task_share: fraction(counts.mockedTasks, counts.tasks),
    placeholder_tasks: counts.placeholderTasks,
    placeholder_task_share: fraction(counts.placeholderTasks, counts.tasks),
    by_tier: counts.byTier,
    fallback_enabled: counts.fallbackEnabled ?? null,
    model_responses: share?.modelResponses
      ? {
          served_from_cache: share.modelResponses.servedFromCache,
          cache_lookups: share.modelResponses.cacheLookups,
          batched: share.modelResponses.batched,
          batch_submitted: share.modelResponses.batchSubmitted,
        }
      : null,
  };
}
