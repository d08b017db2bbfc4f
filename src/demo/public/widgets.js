// @ts-check
// The demo's display widgets over the shared DOM helpers (src/web/public/dom.js): long text
// collapsed to its first lines, a grid of image thumbnails, a tool result as one summary line.
import { h, prettyJson } from './dom.js';

/** @typedef {import('./dom.js').Json} Json */

/**
 * Long text shows its first lines and a button to expand; short text is shown as is.
 * @param {unknown} text
 * @param {{ limit?: number, previewLines?: number, label?: string, className?: string }} [options]
 */
export function collapsible(text, { limit = 600, previewLines = 12, label = 'result', className = 'result-text' } = {}) {
  const body = prettyJson(text);
  if (body.length <= limit) return h('pre', { class: className }, body);
  const lines = body.split('\n');
  const preview = `${lines.length > previewLines ? lines.slice(0, previewLines).join('\n') : body.slice(0, limit)}\n…`;
  const pre = h('pre', { class: className }, preview);
  const more = `Show all ${label} (${lines.length} lines, ${body.length.toLocaleString()} characters)`;
  let open = false;
  const button = h('button', { type: 'button', class: 'link more', 'aria-expanded': 'false' }, more);
  button.addEventListener('click', () => {
    open = !open;
    pre.textContent = open ? body : preview;
    button.textContent = open ? 'Show less' : more;
    button.setAttribute('aria-expanded', String(open));
  });
  return h('div', { class: 'long-text' }, pre, button);
}

/**
 * @param {Json[] | null | undefined} images
 * @param {{ caption?: boolean }} [options]
 */
export function imageGrid(images, { caption = true } = {}) {
  if (!images || images.length === 0) return null;
  return h(
    'div',
    { class: 'image-grid' },
    images.map((/** @type {Json} */ image) =>
      h(
        'figure',
        { class: 'thumb' },
        h(
          'a',
          { href: image.url, target: '_blank', rel: 'noopener' },
          h('img', { src: image.url, alt: `${image.source} image ${image.id}`, loading: 'lazy', width: image.width, height: image.height }),
        ),
        caption ? h('figcaption', {}, `${image.width}×${image.height} · ${image.source === 'upload' ? image.path : image.source}`) : null,
      ),
    ),
  );
}

/**
 * A tool result collapsed to one summary line (its first line, its size); the full text, pretty
 * JSON when it is JSON, opens on click.
 * @param {unknown} text
 * @param {{ label?: string, open?: boolean }} [options]
 */
export function resultDetails(text, { label = 'result', open = false } = {}) {
  const body = prettyJson(text);
  if (body === '') return h('p', { class: 'muted small' }, `(no ${label} text)`);
  const lines = body.split('\n');
  const first = (typeof text === 'string' ? text : body).split('\n')[0].slice(0, 160);
  const size = `${lines.length} line${lines.length === 1 ? '' : 's'}, ${body.length.toLocaleString()} characters`;
  return h('details', { class: 'result', open }, h('summary', {}, `${label}: ${first} (${size})`), h('pre', { class: 'result-text' }, body));
}
