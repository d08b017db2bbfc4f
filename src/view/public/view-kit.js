// @ts-check
// The viewer's page helpers over the shared DOM helpers (src/web/public/dom.js): the page's
// content, the API (or, in an exported page, the answers it carries), tables sorted by their
// heads, intervals and badges.
import { byId, fmt, h } from './dom.js';

/** An API answer (src/view/pages.ts, task-page.ts, task-query.ts define its shape). @typedef {import('./dom.js').Json} Json */
/**
 * A table column: `value` reads the row's sort key (a column without it is not sortable).
 * @typedef {{ key: string, title: string, num?: boolean, sortable?: boolean, value?: (row: any) => unknown }} Column
 */
/** @typedef {{ key?: string, direction?: number }} SortState */
/**
 * What an exported page carries (src/export/bundle-html.ts): the API's answers, the images as
 * data: URLs, and the task table the page queries itself.
 * @typedef {{ runId: string, api: Record<string, Json>, images: Record<string, string>, taskTable?: { run: Json, rows: Json[] } }} Bundle
 */
const exported = /** @type {{ m3ViewBundle?: Bundle, m3BundleQuery?: (rows: Json[], params: Record<string, string>) => Json }} */ (globalThis);

const page = byId('page');
// A page written by `m3 view --export` (src/export/view-bundle.ts) carries the API's answers and
// the images as data: URLs: it reads those, with no server behind it.
const bundle = exported.m3ViewBundle;

/** An image route as the page shows it: in an exported page, the image itself (a data: URL). */
export const imageSrc = (/** @type {string} */ route) => bundle?.images[route] ?? route;

/**
 * Replaces the page's content; children as in h() (nested arrays flattened, null skipped).
 * @param {...unknown} children
 */
export function show(...children) {
  // Charts of the previous render hold their canvases: free them before the page is replaced.
  const { Chart } = /** @type {any} */ (window);
  if (Chart) for (const chart of Object.values(Chart.instances)) chart.destroy();
  // A live page re-renders every poll: what the reader opened or closed stays so (by data-key).
  const toggled = new Map(
    [...page.querySelectorAll('details[data-key]')].map((node) => /** @type {HTMLDetailsElement} */ (node)).map((node) => [node.dataset.key, node.open]),
  );
  page.replaceChildren(...h('div', {}, ...children).childNodes);
  for (const node of /** @type {NodeListOf<HTMLDetailsElement>} */ (page.querySelectorAll('details[data-key]')))
    if (toggled.has(node.dataset.key)) node.open = toggled.get(node.dataset.key) === true;
}

export const enc = encodeURIComponent;
export const when = (/** @type {string | null | undefined} */ iso) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—');
export const badge = (/** @type {string} */ status) => h('span', { class: `badge status-${status}`, 'data-status': status }, status);
export const signed = (/** @type {unknown} */ value) => (typeof value === 'number' ? `${value > 0 ? '+' : ''}${value.toFixed(3)}` : '—');

/**
 * `0.750 [0.500, 1.000]`, or a dash when the interval is not known.
 * @param {{ estimate?: unknown, low?: unknown, high?: unknown } | null | undefined} value
 */
export function interval(value) {
  if (!value || typeof value.estimate !== 'number') return '—';
  const bounds = typeof value.low === 'number' && typeof value.high === 'number' ? ` [${value.low.toFixed(3)}, ${value.high.toFixed(3)}]` : '';
  return `${value.estimate.toFixed(3)}${bounds}`;
}

/**
 * @param {string} path
 * @returns {Promise<Json>}
 */
export async function api(path) {
  if (bundle) {
    // The task table is queried in the page (src/export/bundle-query.ts), as the server would.
    const [route, query = ''] = path.split('?');
    if (/^\/api\/runs\/[^/]+\/tasks$/.test(route ?? '') && bundle.taskTable && exported.m3BundleQuery) {
      const params = Object.fromEntries(new URLSearchParams(query));
      return { run: structuredClone(bundle.taskTable.run), ...exported.m3BundleQuery(bundle.taskTable.rows, params) };
    }
    if (!(path in bundle.api)) throw new Error(`${path} is not in this exported page (it holds run ${bundle.runId} only)`);
    return structuredClone(bundle.api[path]);
  }
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
  return body;
}

/** @param {unknown} value */
export function json(value) {
  return h('pre', {}, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

/**
 * A column head that sorts: a button (reachable by Tab, pressed by Enter or Space) inside a th
 * whose aria-sort says the current order. `sort` is {key, direction (1 | -1)}.
 * @param {Column} column
 * @param {SortState} sort
 * @param {(key: string, direction: number) => void} onSort
 */
export function sortHeader(column, sort, onSort) {
  const active = sort.key === column.key;
  const order = active ? (sort.direction === -1 ? 'descending' : 'ascending') : 'none';
  return h(
    'th',
    { class: `sortable${column.num ? ' num' : ''}`, 'data-key': column.key, 'aria-sort': order, scope: 'col' },
    h(
      'button',
      {
        type: 'button',
        class: 'sort-button',
        'aria-label': `${column.title}: sort ${active && sort.direction !== -1 ? 'descending' : 'ascending'}`,
        onclick: () => onSort(column.key, active ? -(sort.direction ?? 1) : 1),
      },
      column.title,
    ),
  );
}

/**
 * A table sorted (in the page) by a column head. `state` ({key, direction}) is kept by the
 * caller, so the order survives the re-render of a live page.
 * @param {Column[]} columns
 * @param {Json[]} rows
 * @param {(row: Json) => Node} rowOf
 * @param {SortState} [state]
 */
export function sortableTable(columns, rows, rowOf, state = {}) {
  const table = h('table');
  const draw = () => {
    const column = columns.find((entry) => entry.key === state.key);
    const direction = state.direction ?? 1;
    const sorted = !column
      ? rows
      : [...rows].sort((a, b) => {
          const [x, y] = [column.value?.(a), column.value?.(b)];
          return (x === y ? 0 : x === null || x === undefined ? 1 : y === null || y === undefined ? -1 : /** @type {any} */ (x) < y ? -1 : 1) * direction;
        });
    /** @type {(key: string, next: number) => void} */
    const onSort = (key, next) => {
      state.key = key;
      state.direction = next;
      const focused = document.activeElement?.closest?.('th')?.dataset.key;
      draw();
      if (focused) /** @type {HTMLButtonElement | null} */ (table.querySelector(`th[data-key="${focused}"] button`))?.focus();
    };
    table.replaceChildren(
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          columns.map((entry) => sortHeader(entry, state, onSort)),
        ),
      ),
      h('tbody', {}, sorted.map(rowOf)),
    );
  };
  draw();
  return h('div', { class: 'scroll' }, table);
}

/** @param {Json | null | undefined} step */
export function stepCells(step) {
  if (!step || step.missing) return [h('td', { class: 'num', title: step?.missing ?? '' }, '—'), h('td', { class: 'num' }, '—')];
  return [h('td', { class: 'num' }, fmt(step.recall)), h('td', { class: 'num' }, fmt(step.precision))];
}
