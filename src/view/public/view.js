// The run viewer page: hash routes #/ (runs), #/run/<id>, #/task/<run>/<task>, #/compare/<a>/<b>.
// Everything is built with DOM calls and textContent (never innerHTML), so stored text (model
// replies, tool results) cannot inject markup. A page of a running run polls its API route.
const page = document.getElementById('page');
const liveBadge = document.getElementById('live');
const pollMs = 2000;
let timer;
let generation = 0;

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== undefined && child !== null && child !== false) node.append(child instanceof Node ? child : String(child));
  return node;
}

/** Replaces the page's content; children as in h() (nested arrays flattened, null skipped). */
function show(...children) {
  page.replaceChildren(...h('div', {}, ...children).childNodes);
}

const enc = encodeURIComponent;
const fmt = (value, digits = 3) => (typeof value === 'number' ? (Number.isInteger(value) ? String(value) : value.toFixed(digits)) : '—');
const when = (iso) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—');
const badge = (status) => h('span', { class: `badge status-${status}`, 'data-status': status }, status);

async function api(path) {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
  return body;
}

function sortableTable(columns, rows, rowOf) {
  let sortKey;
  let direction = 1;
  const body = h('tbody');
  const draw = () => {
    const sorted =
      sortKey === undefined
        ? rows
        : [...rows].sort((a, b) => {
            const [x, y] = [columns[sortKey].value(a), columns[sortKey].value(b)];
            return (x === y ? 0 : x === null || x === undefined ? 1 : y === null || y === undefined ? -1 : x < y ? -1 : 1) * direction;
          });
    body.replaceChildren(...sorted.map(rowOf));
  };
  const head = h(
    'tr',
    {},
    columns.map((column, index) =>
      h(
        'th',
        {
          class: `sortable${column.num ? ' num' : ''}`,
          'data-key': column.key,
          onclick: () => {
            direction = sortKey === index ? -direction : 1;
            sortKey = index;
            draw();
          },
        },
        column.title,
      ),
    ),
  );
  draw();
  return h('div', { class: 'scroll' }, h('table', {}, h('thead', {}, head), body));
}

function stepCells(step) {
  if (!step || step.missing) return [h('td', { class: 'num', title: step?.missing ?? '' }, '—'), h('td', { class: 'num' }, '—')];
  return [h('td', { class: 'num' }, fmt(step.recall)), h('td', { class: 'num' }, fmt(step.precision))];
}

async function runsView() {
  const { runs } = await api('/api/runs');
  const pick = (name) =>
    h(
      'select',
      { id: `compare-${name}`, 'aria-label': `run ${name}` },
      runs.map((run) => h('option', { value: run.runId }, run.runId)),
    );
  const a = pick('a');
  const b = pick('b');
  if (runs.length > 1) b.selectedIndex = 1;
  const columns = [
    { key: 'run', title: 'run', value: (r) => r.runId },
    { key: 'model', title: 'model', value: (r) => r.model },
    { key: 'status', title: 'status', value: (r) => r.status },
    { key: 'tasks', title: 'tasks', num: true, value: (r) => r.tasks },
    { key: 'ok', title: 'ok', num: true, value: (r) => r.byStatus.ok },
    { key: 'model_failure', title: 'model failure', num: true, value: (r) => r.failures.model },
    { key: 'infra', title: 'infra', num: true, value: (r) => r.failures.infra },
    { key: 'tokens', title: 'tokens', num: true, value: (r) => r.usage.inputTokens + r.usage.outputTokens },
    { key: 'recall', title: 'recall', num: true, value: (r) => r.step?.recall },
    { key: 'precision', title: 'precision', num: true, value: (r) => r.step?.precision },
    { key: 'started', title: 'started', value: (r) => r.startedAt },
    { key: 'finished', title: 'finished', value: (r) => r.finishedAt },
  ];
  const table = sortableTable(columns, runs, (run) =>
    h(
      'tr',
      { 'data-run': run.runId },
      h('td', {}, h('a', { href: `#/run/${enc(run.runId)}` }, run.runId)),
      h('td', {}, run.model),
      h('td', {}, badge(run.status)),
      h('td', { class: 'num' }, run.tasks),
      h('td', { class: 'num' }, run.byStatus.ok),
      h('td', { class: 'num' }, run.failures.model),
      h('td', { class: 'num' }, run.failures.infra),
      h('td', { class: 'num' }, run.usage.inputTokens + run.usage.outputTokens),
      ...stepCells(run.step),
      h('td', {}, when(run.startedAt)),
      h('td', {}, when(run.finishedAt)),
    ),
  );
  const compare = h(
    'button',
    {
      id: 'compare-go',
      onclick: () => {
        location.hash = `#/compare/${enc(a.value)}/${enc(b.value)}`;
      },
    },
    'Compare',
  );
  show(
    h('h1', {}, `Runs (${runs.length})`),
    runs.length ? table : h('p', { class: 'note' }, 'The store holds no run yet: start one with `m3 run` or `npm run bench`.'),
    runs.length > 1 ? h('div', { class: 'toolbar' }, 'Compare', a, 'with', b, compare) : null,
  );
  return runs.some((run) => run.status === 'running');
}

async function runView(runId) {
  const { run, tasks } = await api(`/api/runs/${enc(runId)}`);
  const statuses = ['all', ...new Set(tasks.map((task) => task.status))];
  const filter = h(
    'select',
    { id: 'status-filter', 'aria-label': 'status filter' },
    statuses.map((status) => h('option', { value: status }, status)),
  );
  const holder = h('div');
  const columns = [
    { key: 'task', title: 'task', value: (t) => t.taskId },
    { key: 'status', title: 'status', value: (t) => t.status },
    { key: 'error', title: 'error', value: (t) => t.errorCode },
    { key: 'rounds', title: 'rounds', num: true, value: (t) => t.rounds },
    { key: 'tools', title: 'tool calls', num: true, value: (t) => t.toolCalls },
    { key: 'tokens', title: 'tokens', num: true, value: (t) => t.tokens },
    { key: 'recall', title: 'recall', num: true, value: (t) => t.step?.recall },
    { key: 'precision', title: 'precision', num: true, value: (t) => t.step?.precision },
  ];
  const draw = () => {
    const shown = filter.value === 'all' ? tasks : tasks.filter((task) => task.status === filter.value);
    holder.replaceChildren(
      sortableTable(columns, shown, (task) =>
        h(
          'tr',
          { 'data-task': task.taskId },
          h('td', {}, h('a', { href: `#/task/${enc(runId)}/${enc(task.taskId)}` }, task.taskId)),
          h('td', {}, badge(task.status)),
          h('td', {}, task.errorCode ?? ''),
          h('td', { class: 'num' }, task.rounds),
          h('td', { class: 'num' }, task.toolCalls),
          h('td', { class: 'num' }, task.tokens),
          ...stepCells(task.step),
        ),
      ),
    );
  };
  filter.addEventListener('change', draw);
  draw();
  show(
    h('h1', {}, `Run ${run.runId}`),
    h(
      'p',
      { class: 'meta' },
      `model ${run.model} · `,
      badge(run.status),
      ` · ${run.tasks} tasks · ok ${run.byStatus.ok} · model failure ${run.failures.model} · infra ${run.failures.infra} · started ${when(run.startedAt)}`,
    ),
    run.step?.missing
      ? h('p', { class: 'note' }, run.step.missing)
      : h('p', { class: 'meta' }, `recall ${fmt(run.step.recall)} · precision ${fmt(run.step.precision)} · avg_sim_all_cov ${fmt(run.step.avg_sim_all_cov)}`),
    h('div', { class: 'toolbar' }, h('label', {}, 'Status ', filter), h('span', { id: 'task-count' }, `${tasks.length} tasks`)),
    holder,
  );
  return run.status === 'running';
}

function json(value) {
  return h('pre', {}, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

function toolEvent(call) {
  const images = Array.from({ length: call.imageCount }, (_, n) =>
    h('img', { src: `/api/tool-calls/${call.id}/images/${n}`, alt: `${call.canonicalName} image ${n + 1}`, class: 'tool-image' }),
  );
  return h(
    'div',
    { class: `event tool${call.isError ? ' error' : ''}`, 'data-tool-call': call.id },
    h(
      'div',
      {},
      h('strong', {}, call.canonicalName),
      h('span', { class: 'meta' }, ` · round ${call.round} · ${fmt(call.durationMs, 0)} ms`),
      call.errorCode ? h('span', { class: 'badge status-model_failure' }, ` ${call.errorCode}`) : null,
    ),
    h('details', {}, h('summary', {}, 'arguments'), json(call.arguments)),
    h(
      'details',
      { open: call.isError },
      h('summary', {}, `result (${call.resultText.length} chars)${call.images.length ? ` · ${call.images.length} image(s)` : ''}`),
      json(call.resultText),
    ),
    images,
  );
}

function modelEvent(call) {
  const response = call.response ?? {};
  return h(
    'div',
    { class: `event model${call.errorClass ? ' error' : ''}` },
    h(
      'div',
      {},
      h('strong', {}, `model · ${call.purpose}`),
      h(
        'span',
        { class: 'meta' },
        ` · round ${call.round} · ${fmt(call.latencyMs, 0)} ms · in ${call.usage.inputTokens} / out ${call.usage.outputTokens} tokens · ${call.attempts.length} attempt(s)`,
      ),
    ),
    response.text ? json(response.text) : null,
    typeof response.toolCallCount === 'number' ? h('div', { class: 'meta' }, `${response.toolCallCount} tool call(s) requested`) : null,
    call.request ? h('details', {}, h('summary', {}, 'request'), json(call.request)) : null,
    call.errorMessage ? h('div', { class: 'note' }, `${call.errorClass}: ${call.errorMessage}`) : null,
  );
}

function transcript(modelCalls, toolCalls) {
  const rounds = [...new Set([...modelCalls.map((c) => c.round), ...toolCalls.map((c) => c.round)])].sort((a, b) => a - b);
  return rounds.flatMap((round) => [
    ...modelCalls.filter((c) => c.round === round).map(modelEvent),
    ...toolCalls.filter((c) => c.round === round).map(toolEvent),
  ]);
}

function callBox(call, side) {
  const missing = call.matchedWith === null;
  return h(
    'div',
    { class: `call${missing ? (side === 'gt' ? ' missed' : ' extra') : ''}`, 'data-side': side, 'data-index': call.index },
    h('div', {}, `#${call.index} · step ${call.step + 1} · `, h('strong', {}, call.tool), missing ? (side === 'gt' ? ' — missed' : ' — extra') : ''),
    h('code', {}, call.arguments),
  );
}

function alignmentView(alignment) {
  if (alignment.missing) return [h('p', { class: 'note', id: 'alignment-missing' }, alignment.missing)];
  const { counts, metrics } = alignment;
  const count = (id, label, value) => h('span', { class: 'count', id: `count-${id}`, 'data-value': value }, `${label}: ${value}`);
  const rows = [h('div', { class: 'head' }, 'ground truth'), h('div', { class: 'head link' }, 'match'), h('div', { class: 'head' }, 'predicted')];
  for (const pair of alignment.pairs) {
    rows.push(
      callBox(alignment.gt[pair.gt], 'gt'),
      h('div', { class: `link ${pair.strength}`, 'data-strength': pair.strength }, `⟷ ${pair.similarity.toFixed(3)} ${pair.strength}`),
      callBox(alignment.pred[pair.pred], 'pred'),
    );
  }
  for (const call of alignment.gt.filter((c) => c.matchedWith === null)) rows.push(callBox(call, 'gt'), h('div', { class: 'link' }, ''), h('div'));
  for (const call of alignment.pred.filter((c) => c.matchedWith === null)) rows.push(h('div'), h('div', { class: 'link' }, ''), callBox(call, 'pred'));
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
  ];
}

async function taskView(runId, taskId) {
  const data = await api(`/api/runs/${enc(runId)}/tasks/${enc(taskId)}`);
  const { episode } = data;
  const answer = episode.prediction?.final_answer ?? episode.prediction?.reply;
  show(
    h('p', {}, h('a', { href: `#/run/${enc(runId)}` }, `← run ${runId}`)),
    h('h1', {}, `Task ${taskId}`),
    h(
      'p',
      { class: 'meta' },
      badge(episode.status),
      ` · ${data.run.model} · trial ${episode.trial} · attempt ${episode.attempt} · ${episode.rounds} rounds · ${episode.toolCallCount} tool calls · ${episode.usage.inputTokens + episode.usage.outputTokens} tokens`,
      episode.errorCode ? ` · ${episode.errorCode}` : '',
    ),
    episode.errorMessage ? h('p', { class: 'note' }, episode.errorMessage) : null,
    h('h2', {}, 'Transcript'),
    h('div', { id: 'transcript' }, transcript(data.modelCalls, data.toolCalls)),
    typeof answer === 'string' ? [h('h2', {}, 'Final answer'), json(answer)] : null,
    h('h2', {}, 'Ground-truth alignment'),
    alignmentView(data.alignment),
  );
  return episode.status === 'running';
}

async function compareView(aId, bId) {
  const { a, b, rows, onlyInA, onlyInB } = await api(`/api/compare?a=${enc(aId)}&b=${enc(bId)}`);
  const delta = (value) =>
    h('td', { class: `num ${value > 0 ? 'delta-pos' : value < 0 ? 'delta-neg' : ''}` }, value === null ? '—' : `${value > 0 ? '+' : ''}${fmt(value)}`);
  const columns = [
    { key: 'task', title: 'task', value: (r) => r.taskId },
    { key: 'a', title: `A recall`, num: true, value: (r) => r.a.step?.recall },
    { key: 'b', title: `B recall`, num: true, value: (r) => r.b.step?.recall },
    { key: 'recall-delta', title: 'Δ recall', num: true, value: (r) => r.recallDelta },
    { key: 'precision-delta', title: 'Δ precision', num: true, value: (r) => r.precisionDelta },
    { key: 'flip', title: 'flip', value: (r) => r.flip },
  ];
  const flips = rows.filter((row) => row.flip);
  show(
    h('h1', {}, 'Compare'),
    h(
      'p',
      { class: 'meta' },
      `A = ${a.runId} (${a.model}) · B = ${b.runId} (${b.model}) · ${rows.length} shared tasks · only in A ${onlyInA} · only in B ${onlyInB}`,
    ),
    h(
      'p',
      { id: 'flip-count' },
      `${flips.length} task(s) flip (pass = every GT call matched): ${flips.filter((r) => r.flip === 'broken').length} broken, ${flips.filter((r) => r.flip === 'fixed').length} fixed`,
    ),
    sortableTable(columns, rows, (row) =>
      h(
        'tr',
        { 'data-task': row.taskId, 'data-flip': row.flip ?? '' },
        h('td', {}, h('a', { href: `#/task/${enc(b.runId)}/${enc(row.taskId)}` }, row.taskId)),
        h('td', { class: 'num' }, fmt(row.a.step?.recall)),
        h('td', { class: 'num' }, fmt(row.b.step?.recall)),
        delta(row.recallDelta),
        delta(row.precisionDelta),
        h('td', {}, row.flip ?? ''),
      ),
    ),
  );
  return a.status === 'running' || b.status === 'running';
}

async function route() {
  clearTimeout(timer);
  const mine = ++generation;
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  try {
    const live =
      parts[0] === 'run'
        ? await runView(parts[1])
        : parts[0] === 'task'
          ? await taskView(parts[1], parts[2])
          : parts[0] === 'compare'
            ? await compareView(parts[1], parts[2])
            : await runsView();
    if (mine !== generation) return;
    liveBadge.hidden = !live;
    // A running run: fetch again, so the page follows it without a reload.
    if (live)
      timer = setTimeout(() => {
        if (mine === generation) void refresh(mine);
      }, pollMs);
  } catch (error) {
    show(h('h1', {}, 'Error'), h('p', { class: 'note', id: 'error' }, error.message), h('p', {}, h('a', { href: '#/' }, 'all runs')));
  }
}

async function refresh(mine) {
  const y = window.scrollY;
  generation = mine - 1;
  await route();
  window.scrollTo(0, y);
}

window.addEventListener('hashchange', () => void route());
void route();
