// @ts-check
// The matrix page: tasks × runs, per cell the task's success (passes / decided trials, under the
// one success rule) and its mean step recall, each cell a link to the task in that run. Tasks where
// the runs disagree come first. #/matrix?runs=<a>,<b> picks the runs (default: every run, up to 12).
import { fmt, h } from './dom.js';
import { api, enc, show } from './view-kit.js';

/** @typedef {import('./view-kit.js').Json} Json */

const shownRows = 500;

/**
 * @param {Json} run
 * @param {Json} task
 * @param {Json | undefined} cell
 */
function cellView(run, task, cell) {
  if (!cell) return h('td', { class: 'matrix-cell missing', 'data-run': run.runId }, '—');
  const rate = cell.decided ? cell.passed / cell.decided : null;
  const outcome = rate === null ? 'unevaluated' : rate === 1 ? 'pass' : rate === 0 ? 'fail' : 'mixed';
  const success = rate === null ? 'not evaluated' : run.trials > 1 ? `${cell.passed}/${cell.decided} pass` : outcome;
  return h(
    'td',
    { class: `matrix-cell outcome-${outcome}`, 'data-run': run.runId, 'data-outcome': outcome },
    h(
      'a',
      { href: `#/task/${enc(run.runId)}/${enc(task.taskId)}`, title: `${task.taskId} in ${run.runId}: ${cell.status}` },
      h('span', { class: 'matrix-success' }, success),
      h('span', { class: 'meta' }, ` · recall ${fmt(cell.recall)}`),
    ),
  );
}

/** @param {URLSearchParams} params */
export async function matrixView(params) {
  const runs = params.get('runs') ?? '';
  const data = await api(`/api/matrix${runs ? `?runs=${enc(runs)}` : ''}`);
  const rows = data.tasks.slice(0, shownRows);
  show(
    h('p', {}, h('a', { href: '#/' }, '← all runs')),
    h('h1', {}, `Matrix: ${data.tasks.length} tasks × ${data.runs.length} runs`),
    h(
      'p',
      { class: 'meta' },
      'Each cell: task success under the rule m3 eval task applies (passes / decided trials with k > 1) and the mean step recall; click a cell for the task in that run. Tasks where the runs disagree come first, then tasks every run fails.',
      data.omittedRuns ? ` ${data.omittedRuns} more run(s) not shown: pick runs with #/matrix?runs=<a>,<b>.` : '',
    ),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { id: 'matrix' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'task'),
            data.runs.map((/** @type {Json} */ run) => h('th', { scope: 'col', 'data-run': run.runId, title: `${run.model} · ${run.condition}` }, run.runId)),
          ),
        ),
        h(
          'tbody',
          {},
          rows.map((/** @type {Json} */ task) =>
            h(
              'tr',
              { 'data-task': task.taskId, 'data-rank': task.rank },
              h('th', { scope: 'row' }, task.taskId),
              data.runs.map((/** @type {Json} */ run, /** @type {number} */ index) => cellView(run, task, task.cells[index])),
            ),
          ),
        ),
      ),
    ),
    data.tasks.length > shownRows ? h('p', { class: 'note' }, `the first ${shownRows} of ${data.tasks.length} tasks are shown`) : null,
  );
  return false;
}
