// The report's tables of mocked tool returns and placeholder-image tasks per model. The counts come
// from the one computation over the prediction file (src/results/mocked-share.ts), the same one
// that labels every evaluation output.
import type { MockedShare } from '../results/mocked-share.js';
import { displayName } from './leaderboard.js';
import type { Table } from './tables.js';
import { formatPercent, shareOf } from '../core/number-format.js';

export { mockedShare, type MockedShare } from '../results/mocked-share.js';

const percent = (part: number, whole: number) => formatPercent(shareOf(part, whole), { trim: true });

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

/** Shown only when some model's responses came from the model-response cache or a vendor batch job. */
export function modelResponseTable(shares: ReadonlyArray<MockedShare | undefined>): Table | undefined {
  const shown = shares.filter(
    (share): share is MockedShare & { modelResponses: NonNullable<MockedShare['modelResponses']> } =>
      share?.modelResponses !== undefined && share.modelResponses.servedFromCache + share.modelResponses.batched > 0,
  );
  if (shown.length === 0) return undefined;
  return {
    id: 'model-responses',
    title: 'Model responses from the cache or a batch job',
    header: ['model', 'served by the model-response cache', 'share of cache lookups', 'answered by a batch job', 'share of batch requests'],
    rows: shown.map((share) => {
      const responses = share.modelResponses;
      return [
        displayName(share.model),
        `${responses.servedFromCache}/${responses.cacheLookups}`,
        percent(responses.servedFromCache, responses.cacheLookups),
        `${responses.batched}/${responses.batchSubmitted}`,
        percent(responses.batched, responses.batchSubmitted),
      ];
    }),
    note: "A cached response is one recorded earlier for the identical request (m3 run --cache), replayed without asking the provider; a batched one came from the vendor batch API (m3 run --batch). Both are the model's answers; neither was paid at the synchronous list price in this run.",
  };
}
