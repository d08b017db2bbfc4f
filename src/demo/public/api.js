// @ts-check
// The page's calls to the demo API. Errors come back as { error: { code, message } } and are
// thrown as ApiError so every caller can show the server's message as is.
import { errorText } from './dom.js';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

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
  session: (id) => send('GET', `/api/sessions/${encodeURIComponent(id)}`),
  uploadImage: (sessionId, file) => send('POST', `/api/sessions/${encodeURIComponent(sessionId)}/images`, file, { 'content-type': 'application/octet-stream' }),
  sendMessage: (sessionId, message) =>
    send('POST', `/api/sessions/${encodeURIComponent(sessionId)}/messages`, JSON.stringify(message), { 'content-type': 'application/json' }),
  cancel: (sessionId, episodeId) =>
    send('POST', `/api/sessions/${encodeURIComponent(sessionId)}/cancel`, JSON.stringify({ episodeId }), { 'content-type': 'application/json' }),
  samples: () => send('GET', '/api/samples'),
  addSample: (sessionId, name) =>
    send('POST', `/api/sessions/${encodeURIComponent(sessionId)}/samples`, JSON.stringify({ name }), { 'content-type': 'application/json' }),
  serverOverview: (server) => send('GET', `/api/servers/${encodeURIComponent(server)}`),
  readResource: (server, sessionId, uri) =>
    send('POST', `/api/servers/${encodeURIComponent(server)}/resources/read`, JSON.stringify({ sessionId, uri }), { 'content-type': 'application/json' }),
  getPrompt: (server, sessionId, name, args) =>
    send('POST', `/api/servers/${encodeURIComponent(server)}/prompts/get`, JSON.stringify({ sessionId, name, arguments: args }), {
      'content-type': 'application/json',
    }),
  // The log shows this session's calls only; the session's owner cookie goes with every request.
  rpcLog: (server, sessionId) => send('GET', `/api/servers/${encodeURIComponent(server)}/rpc-log?session=${encodeURIComponent(sessionId)}`),
  callTool: (sessionId, tool, args) =>
    send('POST', '/api/tools/call', JSON.stringify({ sessionId, tool, arguments: args }), { 'content-type': 'application/json' }),
};
