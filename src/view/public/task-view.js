// @ts-check
// The task page: the question and task images, the success verdict with each check, the step
// metrics with their definitions, the transcript (each model request with tokens, latency, every
// attempt and the request as the model received it; each tool call with arguments, result,
// images, error code and fallback tier), the final answer beside the GT reply with the judge and
// proxy scores, then the ground-truth alignment with each GT call's best predicted call.
import { fmt, h } from './dom.js';
import { api, badge, enc, imageSrc, json, show } from './view-kit.js';
import { requestView } from './request-view.js';
import { bestMatchTable, questionSection, stepMetricsSection, successSection, taskImagesSection } from './task-score.js';

/** @typedef {import('./view-kit.js').Json} Json */

/** What a robustness condition (docs/robustness.md) did to the call: never present in a run without one. */
/** @param {Json} mark */
function conditionBadge(mark) {
  const text =
    mark.kind === 'injection'
      ? ` injected instruction (${mark.detail}, in the ${mark.channel ?? 'text'}, canary ${mark.canary ?? '?'})`
      : mark.kind === 'distractor'
        ? ` distractor: ${mark.detail}`
        : ` injected fault: ${mark.detail}`;
  return h('span', { class: 'badge condition', 'data-condition': mark.kind, title: "changed by the run's robustness condition" }, text);
}

/** @param {Json} call */
function toolEvent(call) {
  const images = Array.from({ length: call.imageCount }, (_, n) =>
    h('img', { src: imageSrc(`/api/tool-calls/${call.id}/images/${n}`), alt: `${call.canonicalName} image ${n + 1}`, class: 'tool-image' }),
  );
  return h(
    'div',
    { class: `event tool${call.isError ? ' error' : ''}${call.fallback ? ' mocked' : ''}`, 'data-tool-call': call.id, 'data-tier': call.fallback?.tier ?? '' },
    h(
      'div',
      {},
      h('strong', {}, call.canonicalName),
      h('span', { class: 'meta' }, ` · round ${call.round} · ${fmt(call.durationMs, 0)} ms`),
      call.errorCode ? h('span', { class: 'badge status-model_failure' }, ` ${call.errorCode}`) : null,
      call.fallback
        ? h(
            'span',
            { class: 'badge tier', title: `the real call failed with ${call.fallback.originalErrorCode}` },
            ` mocked: ${call.fallback.tier} (real: ${call.fallback.originalErrorCode})`,
          )
        : h('span', { class: 'meta' }, ' · real'),
      call.condition ? conditionBadge(call.condition) : null,
    ),
    h('details', { 'data-key': `arguments-${call.id}` }, h('summary', {}, 'arguments'), json(call.arguments)),
    h(
      'details',
      { open: call.isError, 'data-key': `result-${call.id}` },
      h('summary', {}, `result (${call.resultText.length} chars)${call.images.length ? ` · ${call.images.length} image(s)` : ''}`),
      json(call.resultText),
    ),
    images,
  );
}

/** @param {Json} attempt */
function attemptLine(attempt) {
  const outcome = attempt.ok ? 'ok' : `${attempt.errorClass ?? 'error'}${attempt.message ? `: ${attempt.message}` : ''}`;
  return h(
    'li',
    {},
    `attempt ${attempt.attempt} · ${fmt(attempt.latencyMs, 0)} ms · ${outcome}${attempt.waitMs ? ` · waited ${fmt(attempt.waitMs, 0)} ms before the next` : ''}`,
  );
}

/** @param {Json} call */
function modelEvent(call) {
  const response = call.response ?? {};
  const retries = Math.max(0, call.attempts.length - 1);
  return h(
    'div',
    { class: `event model${call.errorClass ? ' error' : ''}`, 'data-retries': retries },
    h(
      'div',
      {},
      h('strong', {}, `model · ${call.purpose}`),
      h(
        'span',
        { class: 'meta' },
        ` · round ${call.round} · ${fmt(call.latencyMs, 0)} ms · in ${call.usage.inputTokens} / out ${call.usage.outputTokens} tokens${call.usage.cachedTokens ? ` (${call.usage.cachedTokens} cached)` : ''} · ${retries} retr${retries === 1 ? 'y' : 'ies'}`,
      ),
    ),
    response.text ? json(response.text) : null,
    typeof response.toolCallCount === 'number' ? h('div', { class: 'meta' }, `${response.toolCallCount} tool call(s) requested`) : null,
    call.attempts.length > 1 ? h('ul', { class: 'attempts' }, call.attempts.map(attemptLine)) : null,
    requestView(call),
    call.errorMessage ? h('div', { class: 'note' }, `${call.errorClass}: ${call.errorMessage}`) : null,
  );
}

/**
 * @param {Json[]} modelCalls
 * @param {Json[]} toolCalls
 */
function transcript(modelCalls, toolCalls) {
  /** @type {number[]} */
  const rounds = [...new Set([...modelCalls.map((c) => c.round), ...toolCalls.map((c) => c.round)])].sort((a, b) => a - b);
  return rounds.flatMap((round) => [
    ...modelCalls.filter((c) => c.round === round).map(modelEvent),
    ...toolCalls.filter((c) => c.round === round).map(toolEvent),
  ]);
}

/** @param {Json} final */
function judgeTable(final) {
  if (!final.judges) return h('p', { class: 'note', id: 'judges-missing' }, final.judgesMissing);
  const rows = (/** @type {string} */ metric, /** @type {Json} */ entry) =>
    entry.judges.map((/** @type {Json} */ judge) =>
      h(
        'tr',
        {},
        h('td', {}, metric),
        h('td', {}, judge.name),
        h('td', { class: 'num' }, fmt(judge.score)),
        h('td', { class: 'num' }, fmt(judge.raw)),
        h('td', {}, judge.parse ?? ''),
        h('td', { class: 'num' }, fmt(judge.attempts)),
      ),
    );
  return h(
    'div',
    { id: 'judges' },
    h(
      'p',
      { class: 'meta' },
      `task completion ${fmt(final.judges.final)}${final.judges.info_grounding ? ` · information grounding ${fmt(final.judges.info_grounding.final)}` : ''} (trimmed mean of the judges)`,
    ),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['metric', 'judge', 'score', 'raw', 'read as', 'attempts'].map((title) => h('th', {}, title)),
          ),
        ),
        h('tbody', {}, rows('task completion', final.judges), final.judges.info_grounding ? rows('information grounding', final.judges.info_grounding) : []),
      ),
    ),
  );
}

/** @param {Json} final */
function finalSection(final) {
  return [
    h('h2', {}, 'Final answer and ground truth'),
    h(
      'div',
      { class: 'final' },
      h('div', { id: 'final-answer' }, h('h3', {}, 'final answer'), final.answer ? json(final.answer) : h('p', { class: 'note' }, 'no final reply')),
      h(
        'div',
        { id: 'gt-reply' },
        h('h3', {}, 'GT reply'),
        final.gtReply !== null ? json(final.gtReply || '(empty)') : h('p', { class: 'note' }, final.gtMissing),
      ),
    ),
    judgeTable(final),
    final.judgeFailures.length
      ? h(
          'ul',
          { class: 'note', id: 'judge-failures' },
          final.judgeFailures.map((/** @type {Json} */ failure) => h('li', {}, `${failure.judge} (${failure.metric}): ${failure.reason}`)),
        )
      : null,
    final.proxies
      ? h(
          'p',
          { class: 'meta', id: 'proxies' },
          `proxies (no judge): ${Object.entries(final.proxies)
            .map(([name, value]) => `${name} ${fmt(value)}`)
            .join(' · ')}`,
        )
      : final.proxiesMissing
        ? h('p', { class: 'note' }, final.proxiesMissing)
        : null,
  ];
}

/**
 * @param {Json} call
 * @param {'gt' | 'pred'} side
 */
function callBox(call, side) {
  const missing = call.matchedWith === null;
  return h(
    'div',
    { class: `call${missing ? (side === 'gt' ? ' missed' : ' extra') : ''}`, 'data-side': side, 'data-index': call.index },
    h(
      'div',
      {},
      h('span', { class: 'side-label' }, side === 'gt' ? 'GT' : 'predicted'),
      ` #${call.index} · step ${call.step + 1} · `,
      h('strong', {}, call.tool),
      missing ? (side === 'gt' ? ' — missed' : ' — extra') : '',
    ),
    h('code', {}, call.arguments),
  );
}

/** @param {Json} alignment */
function alignmentView(alignment) {
  if (alignment.missing) return [h('p', { class: 'note', id: 'alignment-missing' }, alignment.missing)];
  const { counts, metrics } = alignment;
  const count = (/** @type {string} */ id, /** @type {string} */ label, /** @type {unknown} */ value) =>
    h('span', { class: 'count', id: `count-${id}`, 'data-value': value }, `${label}: ${value}`);
  const rows = [h('div', { class: 'head' }, 'ground truth'), h('div', { class: 'head link' }, 'match'), h('div', { class: 'head' }, 'predicted')];
  for (const pair of alignment.pairs) {
    rows.push(
      callBox(alignment.gt[pair.gt], 'gt'),
      h('div', { class: `link ${pair.strength}`, 'data-strength': pair.strength }, `⟷ ${pair.similarity.toFixed(3)} ${pair.strength}`),
      callBox(alignment.pred[pair.pred], 'pred'),
    );
  }
  for (const call of alignment.gt.filter((/** @type {Json} */ c) => c.matchedWith === null))
    rows.push(callBox(call, 'gt'), h('div', { class: 'link' }, ''), h('div'));
  for (const call of alignment.pred.filter((/** @type {Json} */ c) => c.matchedWith === null))
    rows.push(h('div'), h('div', { class: 'link' }, ''), callBox(call, 'pred'));
  return [
    h(
      'div',
      { class: 'counts' },
      count('matched', 'matched', counts.matched),
      count('strong', 'strong', counts.strong),
      count('weak', 'weak', counts.weak),
      count('missed', 'missed GT calls', counts.missed),
      count('extra', 'extra predicted calls', counts.extra),
    ),
    h(
      'p',
      { class: 'meta' },
      `recall = matched / GT calls = ${counts.matched}/${metrics.total_gt_calls} = ${fmt(metrics.recall)} · precision = matched / predicted calls = ${counts.matched}/${metrics.total_pred_calls} = ${fmt(metrics.precision)} · avg_sim_all_cov ${fmt(metrics.avg_sim_all_cov)} · step coherence ${fmt(metrics.step_coherence_cov)} · order consistency ${fmt(metrics.order_consistency_cov)}`,
    ),
    h('div', { class: 'align', id: 'alignment' }, rows),
    h('h3', {}, 'Each GT call and its best predicted call'),
    bestMatchTable(alignment),
  ];
}

/**
 * @param {string} runId
 * @param {string} taskId
 * @param {string | undefined} trial
 */
export async function taskView(runId, taskId, trial) {
  const data = await api(`/api/runs/${enc(runId)}/tasks/${enc(taskId)}${trial ? `?trial=${enc(trial)}` : ''}`);
  const { episode, shown } = data;
  show(
    h('p', {}, h('a', { href: `#/run/${enc(runId)}` }, `← run ${runId}`)),
    h('h1', {}, `Task ${taskId}`),
    h(
      'p',
      { class: 'meta' },
      badge(episode.status),
      // Counted from what the transcript below shows: a live episode's row is written at its end.
      h(
        'span',
        { id: 'task-counts', 'data-rounds': shown.rounds, 'data-tool-calls': shown.toolCalls },
        ` · ${data.run.model} · trial ${episode.trial} · attempt ${episode.attempt} · ${shown.rounds} rounds · ${shown.toolCalls} tool calls · ${episode.usage.inputTokens + episode.usage.outputTokens} tokens`,
      ),
      episode.errorCode ? ` · ${episode.errorCode}` : '',
    ),
    episode.errorMessage ? h('p', { class: 'note' }, episode.errorMessage) : null,
    questionSection(data.question),
    taskImagesSection(runId, taskId, episode.trial, data.taskImages),
    successSection(data.success),
    stepMetricsSection(data.alignment),
    h('h2', {}, 'Transcript'),
    h('div', { id: 'transcript' }, transcript(data.modelCalls, data.toolCalls)),
    finalSection(data.final),
    h('h2', {}, 'Ground-truth alignment'),
    alignmentView(data.alignment),
  );
  return episode.status === 'running';
}
