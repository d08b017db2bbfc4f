// @ts-check
// Tiny DOM helpers. Everything from the server or the model goes in as text nodes, never as
// HTML, so a tool result cannot inject markup into the page.

// h('div', { class: 'x', onclick: fn }, 'text', child)
/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attributes]
 * @param {...any} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name === 'class') element.className = value;
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, ...children);
  return element;
}

export function append(parent, ...children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

export function clear(element) {
  while (element.firstChild) element.firstChild.remove();
  return element;
}

export function formatMs(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function formatBytes(bytes) {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

/**
 * Pretty JSON for display; strings that hold JSON are shown parsed, also when the host appended
 * marker lines such as "[image: image/png, 1234 bytes]" after the JSON.
 */
export function prettyJson(value) {
  // A missing value is no text, never the word "null".
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') return JSON.stringify(value, null, 2);
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
  return head !== undefined ? `${head}\n${marker[1]}` : value;
}

/** Long text shows its first lines and a button to expand; short text is shown as is. */
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

export function imageGrid(images, { caption = true } = {}) {
  if (!images || images.length === 0) return null;
  return h(
    'div',
    { class: 'image-grid' },
    images.map((image) =>
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
 */
export function resultDetails(text, { label = 'result', open = false } = {}) {
  const body = prettyJson(text);
  if (body === '') return h('p', { class: 'muted small' }, `(no ${label} text)`);
  const lines = body.split('\n');
  const first = (typeof text === 'string' ? text : body).split('\n')[0].slice(0, 160);
  const size = `${lines.length} line${lines.length === 1 ? '' : 's'}, ${body.length.toLocaleString()} characters`;
  return h('details', { class: 'result', open }, h('summary', {}, `${label}: ${first} (${size})`), h('pre', { class: 'result-text' }, body));
}
