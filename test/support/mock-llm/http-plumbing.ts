// Low-level HTTP pieces of the mock LLM server: routing by path, body reading, credential
// fingerprints, JSON replies, cancellable delays, and the faults a turn can inject.
import { createHash } from 'node:crypto';
import type http from 'node:http';
import type { MockFault } from './script.js';
import { flavours, type Flavour, type Vendor, type WireFormat } from './wire-common.js';
import { anthropicWire } from './wire-anthropic.js';
import { geminiWire } from './wire-gemini.js';
import { openAiWire } from './wire-openai.js';
import { responsesWire } from './wire-openai-responses.js';

/** `batch`: a batch API request (batch-jobs.ts); `batch-line`: one request inside a batch job, answered when the job ends. */
export type Endpoint = 'generate' | 'embeddings' | 'models' | 'model' | 'batch' | 'batch-line' | 'unknown';

export interface Route {
  vendor: Vendor | 'unknown';
  endpoint: Endpoint;
  wire: WireFormat;
  pathModel?: string;
  streamPath?: boolean;
  /** The destination named by a leading path segment (`/xai/v1/...`), if any. */
  flavour?: Flavour;
}

function flavourOf(path: string): { flavour?: Flavour; rest: string } {
  const match = /^\/([a-z]+)(\/.*)$/.exec(path);
  const name = match?.[1] as Flavour | undefined;
  return name && flavours.includes(name) ? { flavour: name, rest: match?.[2] ?? '/' } : { rest: path };
}

/** Routes by path suffix, so base URLs with or without `/v1` (DeepSeek, Zhipu) all work. */
export function routeOf(method: string, fullPath: string): Route {
  const { flavour, rest } = flavourOf(fullPath);
  const route = vendorRoute(method, rest);
  return flavour ? { ...route, flavour } : route;
}

function vendorRoute(method: string, path: string): Route {
  const single = /\/models\/([^/:]+)$/.exec(path);
  if (method === 'GET' && single) {
    const vendor: Vendor = path.includes('/v1beta/') ? 'gemini' : 'openai';
    return { vendor, endpoint: 'model', wire: vendor === 'gemini' ? geminiWire : openAiWire, pathModel: decodeURIComponent(single[1] ?? '') };
  }
  const gemini = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(path);
  if (method === 'POST' && gemini) {
    return {
      vendor: 'gemini',
      endpoint: 'generate',
      wire: geminiWire,
      pathModel: decodeURIComponent(gemini[1] ?? ''),
      streamPath: gemini[2] === 'streamGenerateContent',
    };
  }
  if (method === 'POST' && path.endsWith('/chat/completions')) return { vendor: 'openai', endpoint: 'generate', wire: openAiWire };
  if (method === 'POST' && path.endsWith('/responses')) return { vendor: 'openai-responses', endpoint: 'generate', wire: responsesWire };
  if (method === 'POST' && path.endsWith('/v1/messages')) return { vendor: 'anthropic', endpoint: 'generate', wire: anthropicWire };
  if (method === 'POST' && path.endsWith('/embeddings')) return { vendor: 'openai', endpoint: 'embeddings', wire: openAiWire };
  if (method === 'GET' && path.endsWith('/models')) return { vendor: 'openai', endpoint: 'models', wire: openAiWire };
  return { vendor: 'unknown', endpoint: 'unknown', wire: openAiWire };
}

export function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Short, stable stand-in for a credential: tests compare it with the key they configured. */
export function keyFingerprint(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

export const secretHeaders = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key']);

export function credentialOf(request: http.IncomingMessage, url: URL): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const header = (name: string) => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  return bearer ?? header('x-api-key') ?? header('x-goog-api-key') ?? header('api-key') ?? url.searchParams.get('key') ?? undefined;
}

export function sendJson(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendText(response, status, JSON.stringify(body), headers);
}

export function sendText(response: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

export function sendEvents(response: http.ServerResponse, frames: string[]): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.end(frames.join(''));
}

/** Resolves true after `ms`, or false as soon as the client goes away. */
export function delay(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => resolve(true), ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve(false);
      },
      { once: true },
    );
  });
}

/** The reply that would have been sent, so faults can break it realistically. */
export interface Payload {
  json: string;
  frames: string[] | undefined;
}

function drop(response: http.ServerResponse, payload: Payload): void {
  if (payload.frames) {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(payload.frames.slice(0, Math.max(1, Math.floor(payload.frames.length / 2))).join(''), () => response.socket?.destroy());
    return;
  }
  // Announce the full length, send half, cut the socket: the client sees a truncated body.
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload.json) });
  response.write(payload.json.slice(0, Math.floor(payload.json.length / 2)), () => response.socket?.destroy());
}

export function applyFault(fault: MockFault, wire: WireFormat, response: http.ServerResponse, payload: Payload, credential = ''): void {
  if (fault.kind === 'status') {
    const retryMs = fault.retryAfterMs ?? (fault.retryAfterSeconds !== undefined ? fault.retryAfterSeconds * 1000 : undefined);
    const headers: Record<string, string> = {};
    if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
    if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
    const message = (fault.message ?? `mock LLM: scripted HTTP ${fault.status}`).replaceAll('{credential}', credential);
    const extras = { ...(fault.code ? { code: fault.code } : {}), ...(fault.param ? { param: fault.param } : {}) };
    sendJson(response, fault.status, wire.renderError(fault.status, message, retryMs, extras), headers);
  } else if (fault.kind === 'drop' && fault.when === 'before-headers') {
    response.socket?.destroy();
  } else if (fault.kind === 'drop') {
    drop(response, payload);
  } else if (payload.frames) {
    sendEvents(response, [payload.frames[0] ?? '', 'data: {"broken": \n\n']);
  } else {
    sendText(response, 200, payload.json.slice(0, Math.max(1, Math.floor(payload.json.length / 3))));
  }
}
