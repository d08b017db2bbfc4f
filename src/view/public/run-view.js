// The run page: the run's totals and intervals, charts of its per-task metrics, and the task
// table with filters (status, fallback tier, server, mocked or not, error class, a metric range)
// and sorting. Filter and sort state live per run outside the render, so a live page keeps them.
import { api, badge, enc, fmt, h, interval, show, sortableTable, stepCells, when } from './dom.js';

const states = new Map();

const metricOf = {
  recall: (task) => task.step?.recall,
  precision: (task) => task.step?.precision,
  judge: (task) => task.judgeScore,
};

const errorClasses = (task) => [task.errorCode, ...task.toolErrorCodes].filter(Boolean);

function matches(task, filter) {
  if (filter.status !== 'all' && task.status !== filter.status) return false;
  if (filter.tier === 'none' && task.tiers.length > 0) return false;
  if (filter.tier !== 'all' && filter.tier !== 'none' && !task.tiers.includes(filter.tier)) return false;
  if (filter.server !== 'all' && !task.servers.includes(filter.server)) return false;
  if (filter.mocked === 'mocked' && task.mockedCalls === 0) return false;
  if (filter.mocked === 'real' && task.mockedCalls > 0) return false;
  if (filter.error !== 'all' && !(filter.error === 'none' ? errorClasses(task).length === 0 : errorClasses(task).includes(filter.error))) return false;
  const value = metricOf[filter.metric](task);
  const [min, max] = [Number.parseFloat(filter.min), Number.parseFloat(filter.max)];
  if ((Number.isFinite(min) || Number.isFinite(max)) && typeof value !== 'number') return false;
  if (Number.isFinite(min) && value < min) return false;
  if (Number.isFinite(max) && value > max) return false;
  return true;
}

function select(id, label, values, filter, key, redraw) {
  const node = h(
    'select',
    { id, 'aria-label': label },
    values.map((value) => h('option', { value }, value)),
  );
  node.value = values.includes(filter[key]) ? filter[key] : values[0];
  filter[key] = node.value;
  node.addEventListener('change', () => {
    filter[key] = node.value;
    redraw();
  });
  return h('label', {}, `${label} `, node);
}

function numberInput(id, label, filter, key, redraw) {
  const node = h('input', { id, type: 'number', step: '0.05', min: '0', max: '1', 'aria-label': label, class: 'range', value: filter[key] });
  node.addEventListener('input', () => {
    filter[key] = node.value;
    redraw();
  });
  return node;
}

const columns = [
  { key: 'task', title: 'task', value: (t) => t.taskId },
  { key: 'status', title: 'status', value: (t) => t.status },
  { key: 'error', title: 'error', value: (t) => t.errorCode },
  { key: 'servers', title: 'servers', value: (t) => t.servers.join(' ') },
  { key: 'tier', title: 'fallback tier', value: (t) => t.tiers.join(' ') },
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
export const taskLink = (runId, task, trials) =>
  h(
    'a',
    { href: `#/task/${enc(runId)}/${enc(task.taskId)}${trials > 1 ? `/${task.trial}` : ''}` },
    trials > 1 ? `${task.taskId} · trial ${task.trial}` : task.taskId,
  );

const taskRow = (runId, trials) => (task) =>
  h(
    'tr',
    { 'data-task': task.taskId, 'data-trial': task.trial, 'data-tiers': task.tiers.join(' ') },
    h('td', {}, taskLink(runId, task, trials)),
    h('td', {}, badge(task.status)),
    h('td', {}, [task.errorCode, ...task.toolErrorCodes.map((code) => `tool: ${code}`)].filter(Boolean).join(', ')),
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

/** Per-task recall and precision in five bins, and tasks by status (chart.js, no animation). */
function charts(tasks) {
  if (!window.Chart || tasks.length === 0) return null;
  const bins = ['[0, 0.2)', '[0.2, 0.4)', '[0.4, 0.6)', '[0.6, 0.8)', '[0.8, 1]'];
  const histogram = (values) => {
    const counts = bins.map(() => 0);
    for (const value of values) if (typeof value === 'number') counts[Math.min(4, Math.floor(value * 5))] += 1;
    return counts;
  };
  const metrics = h('canvas', { id: 'chart-metrics', 'aria-label': 'per-task recall and precision' });
  const statuses = h('canvas', { id: 'chart-status', 'aria-label': 'tasks by status' });
  const byStatus = {};
  for (const task of tasks) byStatus[task.status] = (byStatus[task.status] ?? 0) + 1;
  const options = (title) => ({ animation: false, responsive: true, maintainAspectRatio: false, plugins: { title: { display: true, text: title } } });
  queueMicrotask(() => {
    new window.Chart(metrics, {
      type: 'bar',
      data: {
        labels: bins,
        datasets: [
          { label: 'recall', data: histogram(tasks.map((task) => task.step?.recall)), backgroundColor: '#2563eb' },
          { label: 'precision', data: histogram(tasks.map((task) => task.step?.precision)), backgroundColor: '#f59e0b' },
        ],
      },
      options: { ...options('tasks per step-metric bin'), scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
    });
    new window.Chart(statuses, {
      type: 'bar',
      data: { labels: Object.keys(byStatus), datasets: [{ label: 'tasks', data: Object.values(byStatus), backgroundColor: '#6b7280' }] },
      options: { ...options('tasks by status'), scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
    });
  });
  return h('div', { class: 'charts' }, h('div', { class: 'chart' }, metrics), h('div', { class: 'chart' }, statuses));
}

function filters(tasks, filter, redraw) {
  const distinct = (values) => [...new Set(values)].sort();
  return h(
    'div',
    { class: 'toolbar filters' },
    select('status-filter', 'Status', ['all', ...distinct(tasks.map((t) => t.status))], filter, 'status', redraw),
    select('tier-filter', 'Tier', ['all', 'none', ...distinct(tasks.flatMap((t) => t.tiers))], filter, 'tier', redraw),
    select('server-filter', 'Server', ['all', ...distinct(tasks.flatMap((t) => t.servers))], filter, 'server', redraw),
    select('mocked-filter', 'Mocked', ['all', 'mocked', 'real'], filter, 'mocked', redraw),
    select('error-filter', 'Error', ['all', 'none', ...distinct(tasks.flatMap(errorClasses))], filter, 'error', redraw),
    h(
      'span',
      {},
      select('metric-filter', 'Metric', ['recall', 'precision', 'judge'], filter, 'metric', redraw),
      ' from ',
      numberInput('metric-min', 'metric minimum', filter, 'min', redraw),
      ' to ',
      numberInput('metric-max', 'metric maximum', filter, 'max', redraw),
    ),
  );
}

function summaryLines(run) {
  const ci = run.intervals;
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
      `tool surface ${run.toolSurface.name}${run.toolSurface.hash ? ` (${run.toolSurface.hash.slice(0, 12)})` : ''} · tokens ${run.usage.inputTokens + run.usage.outputTokens} · cost ${run.costUsd === null || run.costUsd === undefined ? 'n/a' : `$${fmt(run.costUsd, 4)}`} · model calls ${run.modelCalls} (${run.retriedModelCalls} retried) · mocked tool calls ${run.mocked.mockedCalls}/${run.mocked.calls}`,
    ),
    ci.missing
      ? h('p', { class: 'note' }, `intervals: ${ci.missing}`)
      : h(
          'p',
          { class: 'meta', id: 'run-intervals' },
          `pass@1 ${interval(ci.passAt1)} · recall ${interval(ci.recall)} · precision ${interval(ci.precision)} (recall (task mean) and precision (task mean); pass@1 by task success; 95% bootstrap CI over ${ci.tasks} tasks${ci.unevaluated.length ? `; trials without step evaluation: ${ci.unevaluated.join(', ')}` : ''})`,
        ),
    run.step?.missing
      ? h('p', { class: 'note' }, run.step.missing)
      : h(
          'p',
          { class: 'meta' },
          `step evaluation: recall ${fmt(run.step.recall)} · precision ${fmt(run.step.precision)} · avg_sim_all_cov ${fmt(run.step.avg_sim_all_cov)}`,
        ),
  ];
}

export async function runView(runId) {
  const { run, tasks } = await api(`/api/runs/${enc(runId)}`);
  const state = states.get(runId) ?? {
    filter: { status: 'all', tier: 'all', server: 'all', mocked: 'all', error: 'all', metric: 'recall', min: '', max: '' },
    sort: {},
  };
  states.set(runId, state);
  const holder = h('div');
  const count = h('span', { id: 'task-count' });
  const draw = () => {
    const shown = tasks.filter((task) => matches(task, state.filter));
    count.textContent = `${shown.length} of ${tasks.length} tasks`;
    holder.replaceChildren(sortableTable(columns, shown, taskRow(runId, run.trials), state.sort));
  };
  const toolbar = filters(tasks, state.filter, draw);
  draw();
  show(h('h1', {}, `Run ${run.runId}`), summaryLines(run), charts(tasks), toolbar, h('p', {}, count), holder);
  return run.status === 'running';
}
