// @ts-check
// The DOM helpers of both web pages (the demo, src/demo/public, and the run viewer,
// src/view/public): each server serves this file as /dom.js beside the page's own files
// (src/web/static-files.ts), and the viewer's exported page bundles it (src/export/bundle-html.ts).
// Everything is built with DOM calls and text nodes, never innerHTML, so stored or live text
// (model replies, tool results) cannot inject markup.

/**
 * JSON from the server, as a page reads it: the server's modules define its shape; a page reads
 * the fields it shows.
 * @typedef {Record<string, any>} Json
 */

/**
 * An element: `h('div', { class: 'x', onclick: fn, dataset: { key: 'v' } }, 'text', child)`.
 * Attributes that are undefined, null or false are left out; true sets an empty attribute;
 * `on<event>` functions become listeners. Children: nested arrays are flattened, null skipped.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attributes]
 * @param {...unknown} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name === 'class') element.className = String(value);
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  return append(element, ...children);
}

/**
 * Appends children as in h() and returns the parent.
 * @template {Element} E
 * @param {E} parent
 * @param {...unknown} children
 * @returns {E}
 */
export function append(parent, ...children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/**
 * @template {Element} E
 * @param {E} element
 * @returns {E}
 */
export function clear(element) {
  element.replaceChildren();
  return element;
}

/** A number with `digits` decimals (whole numbers as they are), or a dash when it is not a number. */
export const fmt = (/** @type {unknown} */ value, digits = 3) =>
  typeof value === 'number' ? (Number.isInteger(value) ? String(value) : value.toFixed(digits)) : '—';

/** @param {number} ms */
export function formatMs(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** @param {number} bytes */
export function formatBytes(bytes) {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

/**
 * Pretty JSON for display; strings that hold JSON are shown parsed, also when the host appended
 * marker lines such as "[image: image/png, 1234 bytes]" after the JSON. A missing value is no
 * text, never the word "null".
 * @param {unknown} value
 * @returns {string}
 */
export function prettyJson(value) {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') return JSON.stringify(value, null, 2);
  /** @param {string} text */
  const tryParse = (text) => {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      return undefined;
    }
  };
  const whole = tryParse(value);
  if (whole !== undefined) return whole;
  const marker = /\n(\[[a-z ]+[:\]][^\n]*(?:\n[\s\S]*)?)$/.exec(value);
  const head = marker ? tryParse(value.slice(0, marker.index)) : undefined;
  return marker && head !== undefined ? `${head}\n${marker[1]}` : value;
}

/**
 * The page's element with this id. The pages' own markup has it; a missing one is a broken
 * page, said at once rather than as a null dereference later.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no element #${id}`);
  return element;
}

/** What a caught value says: an Error's message, anything else as text. */
export const errorText = (/** @type {unknown} */ error) => (error instanceof Error ? error.message : String(error));
