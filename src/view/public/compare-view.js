// @ts-check
// The compare page: two runs on their shared tasks: the paired difference B - A of pass@1 and
// recall with its bootstrap interval and the sign test (src/stats, as `m3 compare` computes it),
// the tasks that flip pass/fail, and per-task deltas.
import { fmt, h } from './dom.js';
import { api, enc, show, signed, sortableTable } from './view-kit.js';
import { taskLink } from './run-view.js';

/** @typedef {import('./view-kit.js').Json} Json */

const sortState = {};

/**
 * @param {string} id
 * @param {string} name
 * @param {Json} comparison
 */
function pairedLine(id, name, comparison) {
  const { difference, signTest } = comparison;
  return h(
    'p',
    {
      id,
      class: 'paired',
      'data-estimate': difference.estimate,
      'data-low': difference.low,
      'data-high': difference.high,
      'data-p': signTest.pValue,
    },
    h('strong', {}, `${name} B − A: ${signed(difference.estimate)}`),
    ` [${signed(difference.low)}, ${signed(difference.high)}] 95% CI · B ${fmt(comparison.a)} vs A ${fmt(comparison.b)} · sign test B better on ${signTest.wins}, worse on ${signTest.losses}, ties ${signTest.ties}, p = ${signTest.pValue.toPrecision(2)} · ${comparison.tasks} paired tasks`,
  );
}

/** @param {Json} paired */
function pairedBlock(paired) {
  if (paired.missing) return h('p', { class: 'note', id: 'paired-missing' }, `paired difference: ${paired.missing}`);
  return h(
    'div',
    { class: 'paired-block' },
    pairedLine('paired-pass', 'pass@1', paired.pass),
    pairedLine('paired-recall', 'recall', paired.recall),
    h('p', { class: 'meta' }, paired.sentence),
    h('p', { class: 'meta' }, `success rule: ${paired.rule}`),
    paired.problems.length ? h('p', { class: 'note' }, `compared anyway: ${paired.problems.join('; ')}`) : null,
  );
}

/**
 * @param {string} aId
 * @param {string} bId
 */
export async function compareView(aId, bId) {
  const { a, b, rows, onlyInA, onlyInB, paired } = await api(`/api/compare?a=${enc(aId)}&b=${enc(bId)}`);
  const delta = (/** @type {number | null} */ value) =>
    h(
      'td',
      { class: `num ${value !== null && value > 0 ? 'delta-pos' : value !== null && value < 0 ? 'delta-neg' : ''}` },
      value === null ? '—' : signed(value),
    );
  const columns = [
    { key: 'task', title: 'task', value: (/** @type {Json} */ r) => r.taskId },
    { key: 'a', title: 'A recall', num: true, value: (/** @type {Json} */ r) => r.a.step?.recall },
    { key: 'b', title: 'B recall', num: true, value: (/** @type {Json} */ r) => r.b.step?.recall },
    { key: 'recall-delta', title: 'Δ recall', num: true, value: (/** @type {Json} */ r) => r.recallDelta },
    { key: 'precision-delta', title: 'Δ precision', num: true, value: (/** @type {Json} */ r) => r.precisionDelta },
    { key: 'flip', title: 'flip', value: (/** @type {Json} */ r) => r.flip },
  ];
  const flips = rows.filter((/** @type {Json} */ row) => row.flip);
  show(
    h('h1', {}, 'Compare'),
    h(
      'p',
      { class: 'meta' },
      `A = ${a.runId} (${a.model}) · B = ${b.runId} (${b.model}) · ${rows.length} shared tasks · only in A ${onlyInA} · only in B ${onlyInB}`,
    ),
    pairedBlock(paired),
    h(
      'p',
      { id: 'flip-count' },
      `${flips.length} task(s) flip pass/fail: ${flips.filter((/** @type {Json} */ r) => r.flip === 'broken').length} broken, ${flips.filter((/** @type {Json} */ r) => r.flip === 'fixed').length} fixed`,
    ),
    sortableTable(
      columns,
      rows,
      (row) =>
        h(
          'tr',
          { 'data-task': row.taskId, 'data-trial': row.trial, 'data-flip': row.flip ?? '' },
          h('td', {}, taskLink(b.runId, row, b.trials)),
          h('td', { class: 'num' }, fmt(row.a.step?.recall)),
          h('td', { class: 'num' }, fmt(row.b.step?.recall)),
          delta(row.recallDelta),
          delta(row.precisionDelta),
          h('td', {}, row.flip ?? ''),
        ),
      sortState,
    ),
  );
  return a.status === 'running' || b.status === 'running';
}
