// How much of each model's scored run the tool fallback layer served, read from its prediction
// file (the per-call `fallback` field, src/core/tool-result-contract.ts) and its run manifest:
// the share of calls and of tasks that received mocked returns, shown next to the scores so a
// number that rests on mocked tool returns is never read as a clean one. Likewise the tasks that
// ran on placeholder images (`m3 run --placeholder-images`, src/media/missing-image-stand-in.ts).
import { existsSync } from 'node:fs';
import { PREDICTION_FALLBACK_FIELD } from '../core/tool-result-contract.js';
import { PREDICTION_PLACEHOLDER_FIELD } from '../media/missing-image-stand-in.js';
import { loadJsonFile } from '../tasks/load-json.js';
import { displayName } from './leaderboard.js';
import type { Table } from './tables.js';

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
}

function records(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  return raw && typeof raw === 'object' ? Object.values(raw) : [];
}

function callsOf(record: unknown): unknown[] {
  const steps = (record as { steps?: unknown } | null)?.steps;
  return Array.isArray(steps) ? steps.flatMap((step) => ((step as { calls?: unknown })?.calls as unknown[] | undefined) ?? []) : [];
}

function tierOf(call: unknown): string | undefined {
  const fallback = (call as Record<string, unknown> | null)?.[PREDICTION_FALLBACK_FIELD];
  const tier = (fallback as { tier?: unknown } | undefined)?.tier;
  return typeof tier === 'string' ? tier : undefined;
}

export function mockedShare(model: string, predictionFile: string, manifestFile: string): MockedShare | undefined {
  if (!existsSync(predictionFile)) return undefined;
  const manifest = existsSync(manifestFile) ? (loadJsonFile(manifestFile) as { fallback?: { enabled?: unknown } }) : undefined;
  const share: MockedShare = {
    model,
    fallbackEnabled: manifest ? manifest.fallback?.enabled === true : undefined,
    calls: 0,
    mockedCalls: 0,
    tasks: 0,
    mockedTasks: 0,
    byTier: {},
    placeholderTasks: 0,
  };
  for (const record of records(loadJsonFile(predictionFile))) {
    const tiers = callsOf(record).map(tierOf);
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

const percent = (part: number, whole: number) => (whole === 0 ? '0%' : `${Math.round((part / whole) * 1000) / 10}%`);

/** Shown only when some model ran with the layer on or received mocked returns. */
export function mockedShareTable(shares: ReadonlyArray<MockedShare | undefined>): Table | undefined {
  const shown = shares.filter((share): share is MockedShare => share !== undefined && (share.fallbackEnabled === true || share.mockedCalls > 0));
  if (shown.length === 0) return undefined;
  return {
    id: 'mocked',
    title: 'Mocked tool returns (tool fallback layer)',
    header: ['model', 'mocked calls', 'share of calls', 'tasks with a mocked call', 'share of tasks', 'by tier'],
    rows: shown.map((share) => [
      displayName(share.model),
      `${share.mockedCalls}/${share.calls}`,
      percent(share.mockedCalls, share.calls),
      `${share.mockedTasks}/${share.tasks}`,
      percent(share.mockedTasks, share.tasks),
      Object.entries(share.byTier)
        .sort()
        .map(([tier, count]) => `${tier} ${count}`)
        .join(', ') || '-',
    ]),
    note: 'Calls whose real attempt failed for an infrastructure reason and were answered by a fixture, the record-replay cache, the LLM simulator or a template. Step scores match calls by name and arguments, not returns, but the model saw these returns.',
  };
}

/** Shown only when some model's predictions hold tasks that ran on placeholder images. */
export function placeholderImageTable(shares: ReadonlyArray<MockedShare | undefined>): Table | undefined {
  const shown = shares.filter((share): share is MockedShare => share !== undefined && share.placeholderTasks > 0);
  if (shown.length === 0) return undefined;
  return {
    id: 'placeholder-images',
    title: 'PLACEHOLDER IMAGES: pipeline check, not a benchmark result',
    header: ['model', 'tasks on placeholder images', 'share of tasks'],
    rows: shown.map((share) => [displayName(share.model), `${share.placeholderTasks}/${share.tasks}`, percent(share.placeholderTasks, share.tasks)]),
    note: 'These tasks ran with `m3 run --placeholder-images`: their images were missing and were replaced by labelled stand-ins ("PLACEHOLDER — <file name>"), so tools and model never saw the real image. Their scores check the pipeline and say nothing about a model; they are not comparable with the paper.',
  };
}
