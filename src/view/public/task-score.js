// @ts-check
// The task page's explanation of the score: the question as asked and in the GT, the task images
// as sent, the task's success under the one success rule with each check's result and reason,
// the step metrics with their definitions, and each GT call's best predicted call with the
// similarity and the threshold that decided.
import { fmt, h } from './dom.js';
import { enc, imageSrc, json } from './view-kit.js';

/** @typedef {import('./view-kit.js').Json} Json */

const stepDefinitions = [
  ['recall', 'matched GT calls / GT calls (a match: same tool, argument similarity ≥ τ_weak, optimal assignment per tool)'],
  ['precision', 'matched predicted calls / predicted calls'],
  ['avg_sim_all_cov', 'sum of match similarities / GT calls'],
  ['avg_sim_strong_cov', 'the same over strong matches only (similarity ≥ τ_strong)'],
  ['step_coherence_cov', "matches weighted down when one GT step's calls are spread over several predicted steps"],
  ['order_consistency_cov', 'share of cross-step match pairs in the right order, times GT step-pair coverage'],
  ['merge_purity_cov', '1 − normalised entropy of how predicted steps mix GT steps, times recall'],
];

const verdictText = (/** @type {boolean | null} */ passed) => (passed === null ? 'not evaluated' : passed ? 'pass' : 'fail');
const verdictBadge = (/** @type {boolean | null} */ passed, /** @type {string | undefined} */ id = undefined) =>
  h('span', { class: `badge verdict-${verdictText(passed).replace(' ', '-')}`, id, 'data-passed': String(passed) }, verdictText(passed));

/** @param {Json} question */
export function questionSection(question) {
  const same = question.asked !== null && question.asked === question.gt;
  return [
    h('h2', {}, 'Question'),
    h(
      'div',
      { class: 'final', id: 'question' },
      h('div', { id: 'question-asked' }, h('h3', {}, same ? 'as asked (task file and GT)' : 'as asked (task file)'), json(question.asked ?? '(not recorded)')),
      same
        ? null
        : h(
            'div',
            { id: 'question-gt' },
            h('h3', {}, 'GT form'),
            question.gt !== null ? json(question.gt || '(empty)') : h('p', { class: 'note' }, question.gtMissing),
          ),
    ),
  ];
}

/**
 * @param {string} runId
 * @param {string} taskId
 * @param {number} trial
 * @param {Json[]} images
 */
export function taskImagesSection(runId, taskId, trial, images) {
  if (images.length === 0) return [h('p', { class: 'meta', id: 'task-images' }, 'no task image was sent with the first request')];
  return [
    h(
      'div',
      { id: 'task-images', class: 'task-images' },
      images.map((image, n) =>
        h(
          'figure',
          { class: 'task-image', 'data-status': image.status },
          image.status === 'sent'
            ? h('img', {
                src: imageSrc(`/api/runs/${enc(runId)}/tasks/${enc(taskId)}/images/${n}?trial=${trial}`),
                alt: `task image ${n + 1}`,
                class: 'tool-image',
              })
            : null,
          h(
            'figcaption',
            { class: 'meta' },
            `task image ${n + 1} as sent: ${image.width}×${image.height} ${image.mediaType}, ${image.bytes} bytes · ${image.status}${image.reason ? ` (${image.reason})` : ''}`,
          ),
        ),
      ),
    ),
  ];
}

/** @param {Json} success */
export function successSection(success) {
  const rows = success.checks.map((/** @type {Json} */ check) =>
    h(
      'tr',
      { 'data-kind': check.kind, 'data-passed': String(check.passed) },
      h('td', {}, check.kind),
      h('td', {}, check.check),
      h('td', {}, verdictBadge(check.passed)),
      h('td', { class: 'reason' }, check.reason),
    ),
  );
  return [
    h('h2', {}, 'Success'),
    h(
      'p',
      { id: 'success' },
      verdictBadge(success.passed, 'success-verdict'),
      ` under the rule `,
      h('strong', { id: 'success-rule' }, success.rule),
      `: `,
      h('span', { id: 'success-why' }, success.why),
    ),
    rows.length
      ? h(
          'div',
          { class: 'scroll' },
          h(
            'table',
            { id: 'checks' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['kind', 'check', 'result', 'reason'].map((title) => h('th', {}, title)),
              ),
            ),
            h('tbody', {}, rows),
          ),
        )
      : null,
    h(
      'details',
      { 'data-key': 'success-rule' },
      h('summary', {}, 'the success rule (m3 eval task, src/stats/task-success.ts)'),
      h('p', { class: 'meta' }, success.ruleText),
    ),
  ];
}

/** @param {Json} alignment */
export function stepMetricsSection(alignment) {
  if (alignment.missing) return [];
  const { metrics } = alignment;
  return [
    h('h2', {}, 'Step metrics'),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { id: 'step-metrics' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['metric', 'value', 'definition'].map((title) => h('th', {}, title)),
          ),
        ),
        h(
          'tbody',
          {},
          stepDefinitions.map(([key, definition]) =>
            h('tr', { 'data-metric': key }, h('td', {}, key), h('td', { class: 'num' }, fmt(metrics[key])), h('td', {}, definition)),
          ),
        ),
      ),
    ),
    h('p', { class: 'meta' }, `thresholds (m3 eval step): τ_strong ${alignment.thresholds.tauStrong}, τ_weak ${alignment.thresholds.tauWeak}`),
    alignment.tieSensitive
      ? h(
          'p',
          { class: 'note', id: 'tie-sensitive' },
          `tie-sensitive (the evaluator's tie_sensitive): float32 noise in the similarities could move ${Object.entries(alignment.tieBounds ?? {})
            .map(([key, [low, high]]) => `${key} within [${fmt(low)}, ${fmt(high)}]`)
            .join(', ')}`,
        )
      : null,
  ];
}

/** Each GT call beside its matched or best same-tool predicted call. */
/** @param {Json} alignment */
export function bestMatchTable(alignment) {
  const rows = alignment.best.map((/** @type {Json} */ line) => {
    const gt = alignment.gt[line.gt];
    const pred = line.pred === null ? null : alignment.pred[line.pred];
    return h(
      'tr',
      { 'data-gt': line.gt, 'data-decision': line.decision, 'data-marks': line.marks.join(' ') },
      h('td', {}, h('span', { class: 'side-label' }, 'GT '), `#${line.gt} `, h('strong', {}, gt.tool), h('br'), h('code', {}, gt.arguments)),
      h(
        'td',
        {},
        pred
          ? [h('span', { class: 'side-label' }, 'predicted '), `#${line.pred} `, h('strong', {}, pred.tool), h('br'), h('code', {}, pred.arguments)]
          : h('span', { class: 'note' }, 'none'),
      ),
      h('td', { class: 'num' }, line.similarity === null ? '—' : line.similarity.toFixed(3)),
      h('td', { class: `link ${line.decision === 'unmatched' ? 'below' : line.decision}` }, line.decision),
      h(
        'td',
        {},
        line.reason,
        line.marks.map((/** @type {string} */ mark) =>
          h(
            'span',
            { class: 'badge mark', title: mark === 'tie' ? 'another candidate is within float32 noise' : 'within float32 noise of a threshold' },
            ` ${mark}-sensitive`,
          ),
        ),
      ),
    );
  });
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { id: 'best-matches' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['GT call', 'best predicted call', 'similarity', 'decision', 'what decided'].map((title) => h('th', {}, title)),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}
