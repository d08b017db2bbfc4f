// @ts-check
// The runs page: every run in the store with its condition, trials, batch, task counts by status,
// pass@1 and recall with their bootstrap intervals, tokens, cost, the share of mocked tool calls
// and, for a run in flight, its progress; and the two-run comparison picker. With no run in
// flight the page watches the run list's stamp, so a run started later appears without a reload.
import { fmt, h } from './dom.js';
import { api, badge, enc, interval, show, sortableTable, when } from './view-kit.js';

/** @typedef {import('./view-kit.js').Json} Json */

/** @type {import('./view-kit.js').SortState} */
const sortState = {};

/** @param {Json} run */
function progressCell(run) {
  const cell = h('td', {}, badge(run.status));
  if (run.progress)
    cell.append(
      h(
        'span',
        { class: 'progress', 'data-progress-finished': run.progress.finished, 'data-progress-running': run.progress.running },
        ` ${run.progress.finished} done · ${run.progress.running} running`,
      ),
    );
  return cell;
}

const mockedText = (/** @type {Json} */ run) =>
  run.mocked.share === null ? '—' : `${(100 * run.mocked.share).toFixed(1)}% (${run.mocked.mockedCalls}/${run.mocked.calls})`;
const intervalTitle = (/** @type {Json} */ run) =>
  run.intervals.missing ??
  (run.intervals.state === 'computing'
    ? `the server is computing the bootstrap (since ${when(run.intervals.startedAt)})`
    : `${run.intervals.rule}; ${Math.round(run.intervals.bootstrap.level * 100)}% percentile bootstrap over tasks`);

/** The interval of `metric`; while the server computes it, "computing", with the figure of the run's earlier files marked outdated. */
/**
 * @param {Json} run
 * @param {'passAt1' | 'recall'} metric
 */
function intervalText(run, metric) {
  if (run.intervals.state !== 'computing') return interval(run.intervals[metric]);
  const outdated = run.intervals.outdated?.[metric];
  return outdated ? h('span', { class: 'outdated' }, `computing… (outdated: ${interval(outdated)})`) : h('span', { class: 'computing' }, 'computing…');
}

/** @type {import('./view-kit.js').Column[]} */
const columns = [
  { key: 'run', title: 'run', value: (r) => r.runId },
  { key: 'model', title: 'model', value: (r) => r.model },
  { key: 'condition', title: 'condition', value: (r) => r.condition },
  { key: 'trials', title: 'k', num: true, value: (r) => r.trials },
  { key: 'batch', title: 'batch', value: (r) => r.batchId },
  { key: 'status', title: 'status', value: (r) => r.status },
  { key: 'tasks', title: 'tasks', num: true, value: (r) => r.tasks },
  { key: 'ok', title: 'ok (episodes)', num: true, value: (r) => r.byStatus.ok },
  { key: 'model_failure', title: 'model failure (episodes)', num: true, value: (r) => r.failures.model },
  { key: 'infra', title: 'infra (episodes)', num: true, value: (r) => r.failures.infra },
  { key: 'pass', title: 'pass@1 (task success) [95% CI]', num: true, value: (r) => r.intervals.passAt1?.estimate },
  { key: 'recall', title: 'recall (task mean) [95% CI]', num: true, value: (r) => r.intervals.recall?.estimate ?? r.step?.recall },
  { key: 'tokens', title: 'tokens', num: true, value: (r) => r.usage.inputTokens + r.usage.outputTokens },
  { key: 'cost', title: 'cost $ (n/a: no price known)', num: true, value: (r) => r.costUsd },
  { key: 'mocked', title: 'mocked calls', num: true, value: (r) => r.mocked.share },
  { key: 'started', title: 'started', value: (r) => r.startedAt },
];

/** The oracle and the synthetic agent are harness checks, marked as such in every list. */
const agentKindNote = (/** @type {string | null | undefined} */ spec) =>
  spec === 'replay:gt' ? ' (oracle)' : spec?.startsWith('replay:noisy') ? ' (synthetic agent)' : '';

/** @param {Json} run */
function row(run) {
  const recall = run.intervals.recall || run.intervals.state === 'computing' ? intervalText(run, 'recall') : fmt(run.step?.recall);
  return h(
    'tr',
    { 'data-run': run.runId },
    h('td', {}, h('a', { href: `#/run/${enc(run.runId)}` }, run.runId)),
    h('td', { title: run.modelSpec }, `${run.model}${agentKindNote(run.modelSpec)}`),
    h('td', {}, run.condition),
    h('td', { class: 'num' }, run.trials),
    h('td', {}, run.batchId ?? '—'),
    progressCell(run),
    h('td', { class: 'num' }, run.tasks),
    h('td', { class: 'num' }, run.byStatus.ok),
    h('td', { class: 'num' }, run.failures.model),
    h('td', { class: 'num' }, run.failures.infra),
    h('td', { class: 'num', title: intervalTitle(run), 'data-metric': 'pass' }, intervalText(run, 'passAt1')),
    h('td', { class: 'num', title: intervalTitle(run) }, recall),
    h('td', { class: 'num' }, run.usage.inputTokens + run.usage.outputTokens),
    h('td', { class: 'num' }, run.costUsd === null || run.costUsd === undefined ? 'n/a' : fmt(run.costUsd, 4)),
    h(
      'td',
      {
        class: 'num',
        title: Object.entries(run.mocked.byTier)
          .map(([tier, n]) => `${tier}: ${n}`)
          .join(', '),
      },
      mockedText(run),
    ),
    h('td', {}, when(run.startedAt)),
  );
}

/** What an empty store shows: how to make a run (this page picks it up without a reload). */
function emptyStore() {
  const step = (/** @type {string} */ text, /** @type {string} */ command) => h('li', {}, text, h('pre', {}, command));
  return h(
    'div',
    { id: 'empty-store' },
    h('p', {}, 'No run in this store yet. Make one, and it appears here without a reload:'),
    h(
      'ol',
      {},
      step('the bundled quick start: a run of the oracle over the local tasks, then its step evaluation', 'npm run bench'),
      step(
        'or a run of your own (any provider:model; replay:gt needs no API key), then score it',
        'npx tsx src/cli/main.ts run --model replay:gt --tasks json/m3_local_tasks.json --gt json/m3_local_GT.json\nnpx tsx src/cli/main.ts eval step --gt json/m3_local_GT.json --pred results/runs/<run id>/replay-gt_test_mcp_fuzzy.json',
      ),
    ),
    h('p', { class: 'meta' }, 'The viewer reads the run store of its results folder (m3 view --results-dir, or --store). docs/running.md has the details.'),
  );
}

/** The page's state for view.js: live while a run is in flight; else it watches the run list's stamp. */
export async function runsView() {
  const { runs, stamp } = await api('/api/runs');
  const pick = (/** @type {string} */ name) =>
    h(
      'select',
      { id: `compare-${name}`, 'aria-label': `run ${name}` },
      runs.map((/** @type {Json} */ run) => h('option', { value: run.runId }, run.runId)),
    );
  const a = pick('a');
  const b = pick('b');
  if (runs.length > 1) b.selectedIndex = 1;
  const compare = h('button', { id: 'compare-go', onclick: () => (location.hash = `#/compare/${enc(a.value)}/${enc(b.value)}`) }, 'Compare');
  show(
    h('h1', {}, runs.length ? `Runs (${runs.length})` : 'No runs yet'),
    runs.length ? sortableTable(columns, runs, row, sortState) : emptyStore(),
    runs.length
      ? h(
          'p',
          { class: 'meta' },
          'pass@1: task success, the rule m3 eval task applies (a task with checks passes when all its checks pass; one without when all GT calls are matched: step recall = 1 and precision = 1); recall: mean over tasks; intervals: 95% percentile bootstrap over tasks (src/stats). oracle = replay:gt, synthetic = replay:noisy: harness checks, not models.',
        )
      : null,
    runs.length > 1
      ? h('div', { class: 'toolbar' }, 'Compare', a, 'with', b, compare, h('a', { href: '#/matrix', id: 'matrix-link' }, 'tasks × runs matrix'))
      : null,
  );
  // A run in flight, or intervals the server is still computing: poll until they are there.
  const live = runs.some((/** @type {Json} */ run) => run.status === 'running' || run.intervals.state === 'computing');
  return { live, watch: { url: '/api/runs-stamp', stamp } };
}
