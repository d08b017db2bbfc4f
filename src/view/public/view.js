// @ts-check
// The run viewer page: hash routes #/ (runs), #/run/<id>[?<filters, sort, page>], #/task/<run>/<task>[/<trial>],
// #/compare/<a>/<b>, #/matrix[?runs=<a>,<b>,...],
// one module per page. A page of a running run polls its API route, so it follows the run
// without a reload; the runs page also watches for runs started after it was opened.
import { compareView } from './compare-view.js';
import { byId, errorText, h } from './dom.js';
import { api, show } from './view-kit.js';
import { matrixView } from './matrix-view.js';
import { runView } from './run-view.js';
import { runsView } from './runs-view.js';
import { taskView } from './task-view.js';

const liveBadge = byId('live');
const pollMs = 2000;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;
let generation = 0;

async function route() {
  clearTimeout(timer);
  const mine = ++generation;
  const [path, search = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const params = new URLSearchParams(search);
  try {
    /** @type {boolean | { live: boolean, watch: { url: string, stamp: string } }} */
    const state =
      parts[0] === 'run'
        ? await runView(parts[1], params)
        : parts[0] === 'task'
          ? await taskView(parts[1], parts[2], parts[3])
          : parts[0] === 'compare'
            ? await compareView(parts[1], parts[2])
            : parts[0] === 'matrix'
              ? await matrixView(params)
              : await runsView();
    if (mine !== generation) return;
    // A page answers true (live: poll and re-render) or { live, watch } (re-render only when the
    // watched stamp changes, so an idle page keeps its selections and costs one small request).
    const live = state === true || (typeof state === 'object' && state.live === true);
    liveBadge.hidden = !live;
    if (live)
      timer = setTimeout(() => {
        if (mine === generation) void refresh(mine);
      }, pollMs);
    else if (typeof state === 'object' && state.watch) watch(mine, state.watch);
  } catch (error) {
    show(h('h1', {}, 'Error'), h('p', { class: 'note', id: 'error' }, errorText(error)), h('p', {}, h('a', { href: '#/' }, 'all runs')));
  }
}

/**
 * @param {number} mine
 * @param {{ url: string, stamp: string }} watched
 */
function watch(mine, { url, stamp }) {
  timer = setTimeout(async () => {
    if (mine !== generation) return;
    const now = await api(url).catch(() => ({ stamp }));
    if (mine !== generation) return;
    if (now.stamp !== stamp) void refresh(mine);
    else watch(mine, { url, stamp });
  }, pollMs);
}

/** @param {number} mine */
async function refresh(mine) {
  const y = window.scrollY;
  generation = mine - 1;
  await route();
  window.scrollTo(0, y);
}

window.addEventListener('hashchange', () => void route());
void route();
