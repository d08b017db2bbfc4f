// @ts-check
// The page's calls to the demo API. Errors come back as { error: { code, message } } and are
// thrown as ApiError so every caller can show the server's message as is.
import { errorText } from './dom.js';

/** @typedef {import('./dom.js').Json} Json */

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * @param {Response} response
 * @returns {Promise<Json>}
 */
async function parse(response) {
  const text = await response.text();
  let body;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new ApiError(response.status, 'bad_response', `the server answered ${response.status} with something that is not JSON`);
  }
  if (!response.ok) {
    throw new ApiError(response.status, body?.error?.code ?? 'error', body?.error?.message ?? `request failed with HTTP ${response.status}`);
  }
  return body;
}

/**
 * @param {string} method
 * @param {string} url
 * @param {BodyInit} [body]
 * @param {Record<string, string>} [headers]
 */
async function send(method, url, body, headers = {}) {
  let response;
  try {
    response = await fetch(url, { method, headers, body, credentials: 'same-origin' });
  } catch (error) {
    throw new ApiError(0, 'network', `the demo server cannot be reached (${errorText(error)}); is it still running?`);
  }
  return parse(response);
}

export const api = {
  config: () => send('GET', '/api/config'),
  tools: () => send('GET', '/api/tools'),
  createSession: () => send('POST', '/api/sessions'),
  session: (/** @type {string} */ id) => send('GET', `/api/sessions/${encodeURIComponent(id)}`),
  uploadImage: (/** @type {string} */ sessionId, /** @type {Blob} */ file) =>
    send('POST', `/api/sessions/${encodeURIComponent(sessionId)}/images`, file, { 'content-type': 'application/octet-stream' }),
  sendMessage: (/** @type {string} */ sessionId, /** @type {Json} */ message) =>
    send('POST', `/api/sessions/${encodeURIComponent(sessionId)}/messages`, JSON.stringify(message), { 'content-type': 'application/json' }),
  cancel: (/** @type {string} */ sessionId, /** @type {string | undefined} */ episodeId) =>
    send('POST', `/api/sessions/${encodeURIComponent(sessionId)}/cancel`, JSON.stringify({ episodeId }), { 'content-type': 'application/json' }),
  samples: () => send('GET', '/api/samples'),
  addSample: (/** @type {string} */ sessionId, /** @type {string} */ name) =>
    send('POST', `/api/sessions/${encodeURIComponent(sessionId)}/samples`, JSON.stringify({ name }), { 'content-type': 'application/json' }),
  serverOverview: (/** @type {string} */ server) => send('GET', `/api/servers/${encodeURIComponent(server)}`),
  readResource: (/** @type {string} */ server, /** @type {string} */ sessionId, /** @type {string} */ uri) =>
    send('POST', `/api/servers/${encodeURIComponent(server)}/resources/read`, JSON.stringify({ sessionId, uri }), { 'content-type': 'application/json' }),
  getPrompt: (/** @type {string} */ server, /** @type {string} */ sessionId, /** @type {string} */ name, /** @type {Json} */ args) =>
    send('POST', `/api/servers/${encodeURIComponent(server)}/prompts/get`, JSON.stringify({ sessionId, name, arguments: args }), {
      'content-type': 'application/json',
    }),
  // The log shows this session's calls only; the session's owner cookie goes with every request.
  rpcLog: (/** @type {string} */ server, /** @type {string} */ sessionId) =>
    send('GET', `/api/servers/${encodeURIComponent(server)}/rpc-log?session=${encodeURIComponent(sessionId)}`),
  callTool: (/** @type {string} */ sessionId, /** @type {string} */ tool, /** @type {Json} */ args) =>
    send('POST', '/api/tools/call', JSON.stringify({ sessionId, tool, arguments: args }), { 'content-type': 'application/json' }),
};
