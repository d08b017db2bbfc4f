// @ts-check
// The run page: the run's totals and intervals, charts of its per-task metrics, and the task
// table: text search (task ids, questions, answers, tool names and arguments), filters (task
// success, status, end status, infrastructure failures, mocked, error class, tier, server, tool,
// a metric range), sort (failures first by default) and paging, all done by the server
// (GET /api/runs/<id>/tasks, src/view/task-query.ts). Every filter, sort and page is in the URL
// (#/run/<id>?q=...&outcome=fail&sort=recall&dir=desc&offset=100), so a view is a link.
import { fmt, h } from './dom.js';
import { api, badge, enc, interval, show, sortHeader, stepCells, when } from './view-kit.js';

/** @typedef {import('./view-kit.js').Json} Json */
/** @typedef {Record<string, string>} Query the task table's query, as in the URL */
/** @typedef {(change: Query, paging?: boolean) => void} OnChange */

const pageSize = 100;
/** @type {Query} */
const defaults = {
  q: '',
  outcome: 'all',
  status: 'all',
  end: 'all',
  infra: 'all',
  mocked: 'all',
  error: 'all',
  tier: 'all',
  server: 'all',
  tool: 'all',
  metric: 'recall',
  min: '',
  max: '',
  sort: 'failures',
  dir: 'asc',
  offset: '0',
};

/**
 * The query of the URL, every key present (defaults filled in).
 * @param {URLSearchParams} params
 * @returns {Query}
 */
function queryOf(params) {
  return Object.fromEntries(Object.entries(defaults).map(([key, value]) => [key, params.get(key) ?? value]));
}

/**
 * Only what differs from the defaults goes into a link.
 * @param {Query} query
 */
function searchOf(query) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== defaults[key]) params.set(key, value);
  return params.toString();
}

/**
 * @param {string} id
 * @param {string} label
 * @param {string[]} values
 * @param {Query} query
 * @param {string} key
 * @param {OnChange} onChange
 */
function select(id, label, values, query, key, onChange) {
  const node = h(
    'select',
    { id, 'aria-label': label },
    values.map((value) => h('option', { value }, value)),
  );
  node.value = values.includes(query[key] ?? '') ? (query[key] ?? '') : (values[0] ?? '');
  node.addEventListener('change', () => onChange({ [key]: node.value }));
  return h('label', {}, `${label} `, node);
}

/**
 * @param {string} id
 * @param {string} label
 * @param {Query} query
 * @param {string} key
 * @param {OnChange} onChange
 */
function numberInput(id, label, query, key, onChange) {
  const node = h('input', { id, type: 'number', step: '0.05', min: '0', max: '1', 'aria-label': label, class: 'range', value: query[key] });
  node.addEventListener('change', () => onChange({ [key]: node.value }));
  return node;
}

/** @type {import('./view-kit.js').Column[]} */
const columns = [
  { key: 'task', title: 'task', value: (t) => t.taskId },
  { key: 'status', title: 'status', value: (t) => t.status },
  { key: 'error', title: 'error', value: (t) => t.errorCode },
  { key: 'servers', title: 'servers', sortable: false },
  { key: 'tier', title: 'fallback tier', sortable: false },
  { key: 'rounds', title: 'rounds', num: true, value: (t) => t.rounds },
  { key: 'tools', title: 'tool calls', num: true, value: (t) => t.toolCalls },
  { key: 'tokens', title: 'tokens', num: true, value: (t) => t.tokens },
  { key: 'recall', title: 'recall', num: true, value: (t) => t.step?.recall },
  { key: 'precision', title: 'precision', num: true, value: (t) => t.step?.precision },
  { key: 'judge', title: 'judge', num: true, value: (t) => t.judgeScore },
  { key: 'matched', title: 'all GT calls matched', value: (t) => t.allGtCallsMatched },
  { key: 'pass', title: 'task success (m3 eval task)', value: (t) => t.passed },
];

/** A task's link; with k > 1 trials one row per trial, its link naming the trial. */
export const taskLink = (/** @type {string} */ runId, /** @type {Json} */ task, /** @type {number} */ trials) =>
  h(
    'a',
    { href: `#/task/${enc(runId)}/${enc(task.taskId)}${trials > 1 ? `/${task.trial}` : ''}` },
    trials > 1 ? `${task.taskId} · trial ${task.trial}` : task.taskId,
  );

const taskRow = (/** @type {string} */ runId, /** @type {number} */ trials) => (/** @type {Json} */ task) =>
  h(
    'tr',
    { 'data-task': task.taskId, 'data-trial': task.trial, 'data-tiers': task.tiers.join(' ') },
    h('td', {}, taskLink(runId, task, trials)),
    h('td', {}, badge(task.status)),
    h(
      'td',
      {},
      [
        task.errorCode,
        ...task.toolErrorCodes.map((/** @type {string} */ code) => `tool: ${code}`),
        task.uncodedToolErrors ? `tool error (no code) ×${task.uncodedToolErrors}` : null,
      ]
        .filter(Boolean)
        .join(', '),
    ),
    h('td', {}, task.servers.join(', ')),
    h('td', {}, task.tiers.length ? `${task.tiers.join(', ')} (${task.mockedCalls})` : ''),
    h('td', { class: 'num' }, task.rounds),
    h('td', { class: 'num' }, task.toolCalls),
    h('td', { class: 'num' }, task.tokens),
    ...stepCells(task.step),
    h('td', { class: 'num' }, fmt(task.judgeScore)),
    h('td', {}, task.allGtCallsMatched === null ? '—' : task.allGtCallsMatched ? 'yes' : 'no'),
    h('td', {}, task.passed === null ? '—' : task.passed ? 'pass' : 'fail'),
  );

/** Per-task recall and precision in five bins, and tasks by status, as the server counted them (chart.js, no animation). */
/**
 * @param {Json} counts
 * @param {number} total
 */
function charts(counts, total) {
  const { Chart } = /** @type {any} */ (window);
  if (!Chart || total === 0) return null;
  const metrics = h('canvas', { id: 'chart-metrics', 'aria-label': 'per-task recall and precision' });
  const statuses = h('canvas', { id: 'chart-status', 'aria-label': 'tasks by status' });
  const options = (/** @type {string} */ title) => ({
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    plugins: { title: { display: true, text: title } },
  });
  const axis = { y: { beginAtZero: true, ticks: { precision: 0 } } };
  queueMicrotask(() => {
    new Chart(metrics, {
      type: 'bar',
      data: {
        labels: counts.bins,
        datasets: [
          { label: 'recall', data: counts.recall, backgroundColor: '#2563eb' },
          { label: 'precision', data: counts.precision, backgroundColor: '#f59e0b' },
        ],
      },
      options: { ...options('tasks per step-metric bin'), scales: axis },
    });
    new Chart(statuses, {
      type: 'bar',
      data: { labels: Object.keys(counts.byStatus), datasets: [{ label: 'tasks', data: Object.values(counts.byStatus), backgroundColor: '#6b7280' }] },
      options: { ...options('tasks by status'), scales: axis },
    });
  });
  return h('div', { class: 'charts' }, h('div', { class: 'chart' }, metrics), h('div', { class: 'chart' }, statuses));
}

/**
 * @param {Query} query
 * @param {OnChange} onChange
 */
function searchBox(query, onChange) {
  const node = h('input', {
    id: 'task-search',
    type: 'search',
    class: 'search',
    'aria-label': 'Search task ids, questions, answers, tool names and arguments',
    placeholder: 'search ids, questions, answers, tools, arguments',
    value: query.q,
  });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  node.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => onChange({ q: node.value }), 250);
  });
  return node;
}

/**
 * @param {Json} facets
 * @param {Query} query
 * @param {OnChange} onChange
 */
function filters(facets, query, onChange) {
  /** @type {(id: string, label: string, key: string, values: string[]) => HTMLElement} */
  const pick = (id, label, key, values) => select(id, label, values, query, key, onChange);
  return h(
    'div',
    { class: 'toolbar filters' },
    searchBox(query, onChange),
    pick('outcome-filter', 'Success', 'outcome', ['all', 'fail', 'pass', 'unevaluated']),
    pick('status-filter', 'Status', 'status', ['all', ...facets.status]),
    pick('end-filter', 'End', 'end', ['all', ...facets.end]),
    pick('infra-filter', 'Infra failures', 'infra', ['all', 'only', 'exclude']),
    pick('mocked-filter', 'Mocked', 'mocked', ['all', 'mocked', 'real']),
    pick('error-filter', 'Error', 'error', ['all', 'none', ...facets.error]),
    pick('tier-filter', 'Tier', 'tier', ['all', 'none', ...facets.tier]),
    pick('server-filter', 'Server', 'server', ['all', ...facets.server]),
    pick('tool-filter', 'Tool', 'tool', ['all', ...facets.tool]),
    h(
      'span',
      {},
      pick('metric-filter', 'Metric', 'metric', ['recall', 'precision', 'judge']),
      ' from ',
      numberInput('metric-min', 'metric minimum', query, 'min', onChange),
      ' to ',
      numberInput('metric-max', 'metric maximum', query, 'max', onChange),
    ),
  );
}

/** @param {Json} ci */
function intervalsLine(ci) {
  if (ci.missing) return h('p', { class: 'note', id: 'run-intervals-missing' }, `intervals: ${ci.missing}`);
  if (ci.state === 'computing') {
    // An earlier figure is of files that changed since: shown, but never as the current one.
    const outdated = ci.outdated ? ` (until then, the figure of the run's earlier files, outdated: pass@1 ${interval(ci.outdated.passAt1)})` : '';
    return h(
      'p',
      { class: 'meta', id: 'run-intervals-computing' },
      `intervals: computing the bootstrap in the background since ${when(ci.startedAt)}…${outdated}`,
    );
  }
  return h(
    'p',
    { class: 'meta', id: 'run-intervals' },
    `pass@1 ${interval(ci.passAt1)} · recall ${interval(ci.recall)} · precision ${interval(ci.precision)} (recall (task mean) and precision (task mean); pass@1 by task success; 95% bootstrap CI over ${ci.tasks} tasks${ci.unevaluated.length ? `; trials without step evaluation: ${ci.unevaluated.join(', ')}` : ''})`,
  );
}

const intervalsPollMs = 2000;

/**
 * The intervals line: asked for after the rows are drawn; while the server computes the bootstrap
 * (in the background, src/view/interval-jobs.ts) it says so and asks again until the figure is ready
 * or the page is left.
 */
/** @param {string} runId */
function intervalsSlot(runId) {
  const slot = h('div', { id: 'intervals-slot' }, h('p', { class: 'meta' }, 'intervals: asking the server…'));
  const ask = () =>
    api(`/api/runs/${enc(runId)}/intervals`)
      .then((ci) => {
        slot.replaceChildren(intervalsLine(ci));
        if (ci.state === 'computing') setTimeout(() => slot.isConnected && void ask(), intervalsPollMs);
      })
      .catch((error) => slot.replaceChildren(h('p', { class: 'note' }, `intervals: ${error.message}`)));
  void ask();
  return slot;
}

/** @param {Json} run */
function summaryLines(run) {
  return [
    h(
      'p',
      { class: 'meta' },
      `model ${run.model} · condition ${run.condition} · k = ${run.trials} · batch ${run.batchId ?? '—'} · `,
      badge(run.status),
      run.progress
        ? h('span', { class: 'progress', 'data-progress-finished': run.progress.finished }, ` ${run.progress.finished} done · ${run.progress.running} running`)
        : null,
      ` · ${run.tasks} tasks · ok ${run.byStatus.ok} · model failure ${run.failures.model} · infra ${run.failures.infra} · started ${when(run.startedAt)}`,
    ),
    h(
      'p',
      { class: 'meta' },
      `tool surface ${run.toolSurface.name}${run.toolSurface.hash ? ` (${run.toolSurface.hash.slice(0, 12)})` : ''} · tokens ${run.usage.inputTokens + run.usage.outputTokens} · cost ${run.costUsd === null || run.costUsd === undefined ? 'n/a' : `$${fmt(run.costUsd, 4)} paid${run.savedUsd ? `, $${fmt(run.savedUsd, 4)} saved (cache, batch price)` : ''}`} · model calls ${run.modelCalls} (${run.retriedModelCalls} retried) · mocked tool calls ${run.mocked.mockedCalls}/${run.mocked.calls} · model responses from the cache ${run.modelResponses.servedFromCache}/${run.modelResponses.cacheLookups}, from batch jobs ${run.modelResponses.batched}/${run.modelResponses.batchSubmitted}`,
    ),
    intervalsSlot(run.runId),
    run.step?.missing
      ? h('p', { class: 'note' }, run.step.missing)
      : h(
          'p',
          { class: 'meta' },
          `step evaluation: recall ${fmt(run.step.recall)} · precision ${fmt(run.step.precision)} · avg_sim_all_cov ${fmt(run.step.avg_sim_all_cov)}`,
        ),
  ];
}

/**
 * @param {Json} data
 * @param {OnChange} onChange
 */
function pager(data, onChange) {
  const from = data.matched === 0 ? 0 : data.offset + 1;
  const to = data.offset + data.rows.length;
  return h(
    'div',
    { class: 'pager' },
    h('span', { id: 'task-count', 'data-matched': data.matched, 'data-total': data.total }, `${data.matched} of ${data.total} tasks`),
    data.matched > data.limit ? h('span', { id: 'task-range' }, ` · rows ${from}–${to}`) : null,
    data.offset > 0
      ? h('button', { type: 'button', id: 'page-prev', onclick: () => onChange({ offset: String(Math.max(0, data.offset - data.limit)) }, true) }, '← previous')
      : null,
    to < data.matched ? h('button', { type: 'button', id: 'page-next', onclick: () => onChange({ offset: String(to) }, true) }, 'next →') : null,
  );
}

/**
 * @param {string} runId
 * @param {Json} run
 * @param {Json} data
 * @param {Query} query
 * @param {OnChange} onChange
 */
function taskTable(runId, run, data, query, onChange) {
  const sort = { key: query.sort, direction: query.dir === 'desc' ? -1 : 1 };
  /** @type {(key: string, direction: number) => void} */
  const onSort = (key, direction) => onChange({ sort: key, dir: direction === -1 ? 'desc' : 'asc' });
  const head = columns.map((column) => (column.sortable === false ? h('th', { scope: 'col' }, column.title) : sortHeader(column, sort, onSort)));
  return h(
    'div',
    {},
    pager(data, onChange),
    h(
      'div',
      { class: 'scroll' },
      h('table', { id: 'task-table' }, h('thead', {}, h('tr', {}, head)), h('tbody', {}, data.rows.map(taskRow(runId, run.trials)))),
    ),
  );
}

/**
 * The run page for view.js: live (polled) while the run is in flight.
 * @param {string} runId
 * @param {URLSearchParams} [params]
 */
export async function runView(runId, params = new URLSearchParams()) {
  const query = queryOf(params);
  const path = () => `/api/runs/${enc(runId)}/tasks?${new URLSearchParams({ ...query, limit: String(pageSize) })}`;
  const data = await api(path());
  const holder = h('div', { id: 'task-holder', 'aria-busy': 'false' });
  let pending = 0;
  // A change rewrites the URL (no new history entry, no re-render of the toolbar, so the search
  // box keeps its focus) and fetches the table again; a filter change goes back to the first page.
  /** @type {(change: Query, paging?: boolean) => Promise<void>} */
  const onChange = async (change, paging = false) => {
    Object.assign(query, change, paging ? {} : { offset: '0' });
    history.replaceState(null, '', `#/run/${enc(runId)}${searchOf(query) ? `?${searchOf(query)}` : ''}`);
    const mine = ++pending;
    holder.setAttribute('aria-busy', 'true');
    const next = await api(path());
    if (mine !== pending) return;
    const focused = document.activeElement?.closest?.('th')?.dataset.key;
    holder.replaceChildren(taskTable(runId, next.run, next, query, onChange));
    if (focused) /** @type {HTMLButtonElement | null} */ (holder.querySelector(`th[data-key="${focused}"] button`))?.focus();
    holder.setAttribute('aria-busy', 'false');
  };
  holder.append(taskTable(runId, data.run, data, query, onChange));
  show(h('h1', {}, `Run ${data.run.runId}`), summaryLines(data.run), charts(data.charts, data.total), filters(data.facets, query, onChange), holder);
  return data.run.status === 'running';
}
