// @ts-check
// The "request" view of one model call: what the model received (system text, messages with
// their text, images, tool calls and results), the tools offered (count and names), the images
// as the driver delivered them (size, bytes, sent / placeholder / dropped), tokens and cost.
import { fmt, h } from './dom.js';

/** @typedef {import('./view-kit.js').Json} Json */

/** @param {Json[]} images */
function imageTable(images) {
  if (images.length === 0) return h('p', { class: 'meta' }, 'no image in this request');
  return h(
    'table',
    { class: 'request-images' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['origin', 'source', 'size', 'type', 'bytes', 'delivery'].map((title) => h('th', {}, title)),
      ),
    ),
    h(
      'tbody',
      {},
      images.map((image) =>
        h(
          'tr',
          { 'data-status': image.status },
          h('td', {}, image.origin === 'tool' ? `tool ${image.tool ?? ''}` : 'task'),
          h('td', {}, image.source),
          h('td', {}, `${image.width}×${image.height}`),
          h('td', {}, image.mediaType),
          h('td', { class: 'num' }, image.bytes),
          h('td', {}, `${image.status}${image.reason ? ` (${image.reason})` : ''}`),
        ),
      ),
    ),
  );
}

/** @param {Json} message */
function messageItem(message) {
  return h(
    'li',
    { class: 'request-message', 'data-role': message.role },
    h('strong', {}, message.role),
    message.parts.map((/** @type {Json} */ part) =>
      h('div', { class: `part part-${part.kind}` }, part.kind === 'text' ? '' : h('span', { class: 'meta' }, `${part.kind.replace('_', ' ')}: `), part.text),
    ),
  );
}

/** @param {Json} call */
export function requestView(call) {
  // What the reply paid (the store's figure): batch replies at the batch price, cache-served ones $0.
  /** @type {Record<string, string>} */
  const billingNotes = { batch: ` (provider batch ${call.vendorBatchId ?? ''}, batch price)`, cache: ' (served by the model cache)' };
  const billing = billingNotes[String(call.billing)] ?? '';
  const saved = call.savedUsd ? `, $${fmt(call.savedUsd, 6)} saved` : '';
  const cost = call.costUsd === null ? 'cost n/a (no price known for this model)' : `$${fmt(call.costUsd, 6)} paid${billing}${saved}`;
  const totals = `in ${call.usage.inputTokens} / out ${call.usage.outputTokens} tokens · ${cost} · images: ${call.imagePayload.count ?? 0}, ${call.imagePayload.bytes ?? 0} bytes`;
  const request = call.request;
  return h(
    'details',
    { class: 'request', 'data-key': `request-${call.id}`, 'data-round': call.round },
    h('summary', {}, `request of round ${call.round} (${call.purpose})`),
    h('p', { class: 'meta' }, totals),
    request
      ? [
          h(
            'p',
            { class: 'meta request-tools', 'data-tools': request.tools.length },
            `tools offered: ${request.tools.length}${request.tools.length ? ` (${request.tools.join(', ')})` : ''}`,
          ),
          request.system ? h('div', { class: 'request-system' }, h('strong', {}, 'system'), h('div', { class: 'part' }, request.system)) : null,
          h('ol', { class: 'request-messages', 'data-messages': request.messages.length }, request.messages.map(messageItem)),
        ]
      : h('p', { class: 'note' }, 'the driver kept no wire request (a replay driver): only the images and tokens below are known'),
    imageTable(call.images),
  );
}
