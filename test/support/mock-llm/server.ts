// A real node:http server on 127.0.0.1 that speaks the OpenAI, Anthropic and Gemini wire
// formats. It answers from a queue of neutral turns (or a respond hook), records every request
// with secrets reduced to fingerprints, rejects requests a real API would reject (HTTP 400 with
// that vendor's error body, recorded as invalid, queue untouched), and injects faults per turn.
// A path prefix (`/xai/v1`, `/zhipu/v1`, ...) impersonates an OpenAI-compatible destination with
// its own rules; GET .../models/<id> answers model look-ups in each vendor's shape.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  applyFault,
  credentialOf,
  delay,
  keyFingerprint,
  readBody,
  routeOf,
  secretHeaders,
  sendEvents,
  sendJson,
  sendText,
  type Endpoint,
  type Route,
} from './http-plumbing.js';
import { batchRouteOf, MockBatches, type BatchControl, type LineResult, type MockBatchJob } from './batch-jobs.js';
import { anthropicWire } from './wire-anthropic.js';
import { geminiWire } from './wire-gemini.js';
import { MockMemory } from './mock-memory.js';
import { modelLookup } from './model-lookup.js';
import { mockTurnSchema, type MockFault, type MockTurn } from './script.js';
import { bodyText, type Flavour, type RuleContext, type Vendor } from './wire-common.js';
import { openAiWire, renderEmbeddings, validateEmbeddingRequest } from './wire-openai.js';
import { responsesWire } from './wire-openai-responses.js';

export { keyFingerprint };

export interface RecordedRequest {
  /** 1-based, over all requests. */
  sequence: number;
  vendor: Vendor | 'unknown';
  /** The OpenAI-compatible destination impersonated through a path prefix, if any. */
  flavour?: Flavour;
  endpoint: Endpoint;
  method: string;
  path: string;
  query: Record<string, string>;
  model?: string;
  stream: boolean;
  /** Request headers with credentials replaced by "[REDACTED]". */
  headers: Record<string, string>;
  /** `keyFingerprint` of the credential sent, if any. */
  authFingerprint?: string;
  /** Parsed JSON body (the raw text when it did not parse). */
  body: unknown;
  valid: boolean;
  issues: string[];
  /** 0-based index of the script turn that answered (queue order), when one did. */
  turnIndex?: number;
  outcome: 'ok' | 'fault' | 'invalid' | 'exhausted' | 'not_found' | 'client_gone';
  receivedAt: number;
}

export interface MockLlmOptions {
  turns?: MockTurn[];
  fallback?: MockTurn;
  /** Consulted before the queue; return undefined to fall through to it. */
  respond?: (request: RecordedRequest) => MockTurn | undefined;
  /** Ids listed by GET /v1/models; when set, GET .../models/<id> answers 404 for other ids. */
  models?: string[];
  /** When set, any other credential gets the vendor's 401. */
  keys?: string[];
  embeddingDimensions?: number;
  port?: number;
  /** Called once per request when its answer has been sent (or the client left). */
  onRequest?: (request: RecordedRequest) => void;
}

export interface MockLlm {
  /** http://127.0.0.1:<port>: the Anthropic and Gemini base URL. */
  url: string;
  /** `${url}/v1`: the OpenAI base URL. */
  openAiBaseUrl: string;
  /** `${url}/<flavour>/v1`: an OpenAI-compatible destination with that vendor's rules. */
  baseUrlFor(flavour: Flavour): string;
  enqueue(...turns: MockTurn[]): void;
  /** Faults for the next embeddings requests, one per request (embeddings never use the turn queue). */
  failEmbeddings(...faults: MockFault[]): void;
  /** Every request so far, in arrival order (a live array). */
  requests: RecordedRequest[];
  /** Generation requests only (chat, messages, generateContent), not the lines of batch jobs. */
  generations(): RecordedRequest[];
  /** The batch APIs: how jobs end (hold, polls before done, expire) and every job so far. */
  batches: BatchControl;
  /** The requests inside batch jobs, answered when their job ended (endpoint `batch-line`). */
  batchLines(): RecordedRequest[];
  /** Turns still queued. */
  pending(): number;
  close(): Promise<void>;
}

function recordOf(request: http.IncomingMessage, url: URL, route: Route, text: string, sequence: number): RecordedRequest {
  const credential = credentialOf(request, url);
  return {
    sequence,
    vendor: route.vendor,
    endpoint: route.endpoint,
    method: request.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries([...url.searchParams].map(([key, value]) => [key, key === 'key' ? '[REDACTED]' : value])),
    stream: false,
    headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, secretHeaders.has(name) ? '[REDACTED]' : String(value)])),
    ...(credential ? { authFingerprint: keyFingerprint(credential) } : {}),
    ...(route.flavour ? { flavour: route.flavour } : {}),
    body: text,
    valid: true,
    issues: [],
    outcome: 'ok',
    receivedAt: Date.now(),
  };
}

class MockLlmServer {
  readonly requests: RecordedRequest[] = [];
  readonly queue: MockTurn[];
  readonly embeddingFaults: MockFault[] = [];
  readonly memory = new MockMemory();
  readonly batches = new MockBatches((job, index) => this.answerLine(job, index));
  private consumed = 0;

  constructor(private readonly options: MockLlmOptions) {
    this.queue = (options.turns ?? []).map((turn) => mockTurnSchema.parse(turn));
  }

  private nextTurn(record: RecordedRequest): MockTurn | undefined {
    const scripted = this.options.respond?.(record);
    if (scripted) return mockTurnSchema.parse(scripted);
    const turn = this.queue.shift();
    if (!turn) return this.options.fallback;
    record.turnIndex = this.consumed;
    this.consumed += 1;
    return turn;
  }

  async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const route = routeOf(request.method ?? 'GET', url.pathname);
    const text = await readBody(request);
    const record = recordOf(request, url, route, text, this.requests.length + 1);
    this.requests.push(record);
    const closed = new AbortController();
    response.on('close', () => {
      closed.abort();
      this.options.onRequest?.(record);
    });
    const batchRoute = batchRouteOf(record.method, url.pathname);
    if (batchRoute) {
      record.endpoint = 'batch';
      record.vendor = batchRoute.kind.startsWith('openai') ? 'openai' : batchRoute.kind.startsWith('anthropic') ? 'anthropic' : 'gemini';
      return this.batches.handle(batchRoute, request, text, response, `http://${request.headers.host ?? '127.0.0.1'}`);
    }
    if (route.endpoint === 'unknown') {
      Object.assign(record, { valid: false, outcome: 'not_found' });
      return sendJson(response, 404, { error: { message: `mock LLM: no route for ${record.method} ${record.path}` } });
    }
    const credential = credentialOf(request, url) ?? '';
    const vendor = route.vendor === 'openai' && request.headers['anthropic-version'] ? 'anthropic' : route.vendor;
    if (this.options.keys && !this.options.keys.includes(credential)) {
      Object.assign(record, { valid: false, outcome: 'fault' });
      const lookup = modelLookup(vendor, route.pathModel ?? '', undefined);
      return sendJson(response, 401, lookup.unauthorized);
    }
    if (route.endpoint === 'model') {
      const lookup = modelLookup(vendor, route.pathModel ?? '', this.options.models);
      if (!lookup.found) Object.assign(record, { valid: false, outcome: 'not_found' });
      return sendJson(response, lookup.found ? 200 : 404, lookup.body);
    }
    if (route.endpoint === 'models') {
      const models = this.options.models ?? ['mock-model'];
      return sendJson(response, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'mock-llm' })) });
    }
    try {
      record.body = JSON.parse(text) as unknown;
    } catch {
      Object.assign(record, { valid: false, outcome: 'invalid', issues: ['request body is not valid JSON'] });
      return sendJson(response, 400, route.wire.renderError(400, 'mock LLM: request body is not valid JSON'));
    }
    if (route.endpoint === 'embeddings') return this.embeddings(route, record, response);
    return this.generate(route, record, response, closed.signal, credential);
  }

  /** One line of an ended batch job, answered like a synchronous request of that vendor (recorded as `batch-line`). */
  private answerLine(job: MockBatchJob, index: number): LineResult {
    const line = job.lines[index];
    const openAi = job.endpoint === '/v1/responses' ? responsesWire : openAiWire;
    const wire = job.vendor === 'openai' ? openAi : job.vendor === 'anthropic' ? anthropicWire : geminiWire;
    const model = job.vendor === 'gemini' ? job.model : String((line?.body as { model?: unknown } | undefined)?.model ?? '');
    const record: RecordedRequest = {
      sequence: this.requests.length + 1,
      vendor: job.vendor,
      endpoint: 'batch-line',
      method: 'POST',
      path: `${job.id}#${line?.customId ?? index}`,
      query: {},
      model,
      stream: false,
      headers: {},
      body: line?.body,
      valid: true,
      issues: [],
      outcome: 'ok',
      receivedAt: Date.now(),
    };
    this.requests.push(record);
    const rules: RuleContext = { model, flavour: undefined, memory: this.memory };
    record.issues = wire.validate(line?.body, rules);
    const rejection = record.issues.length === 0 ? wire.rules?.(line?.body, rules) : undefined;
    if (record.issues.length > 0 || rejection) {
      Object.assign(record, { valid: false, outcome: 'invalid' });
      return {
        ok: false,
        status: rejection?.status ?? 400,
        message: rejection?.message ?? `mock LLM: invalid ${wire.vendor} request: ${record.issues.join('; ')}`,
      };
    }
    const turn = this.nextTurn(record);
    if (!turn) {
      record.outcome = 'exhausted';
      return { ok: false, status: 500, message: 'mock LLM: no scripted turn left' };
    }
    if (turn.fault) {
      record.outcome = 'fault';
      const status = turn.fault.kind === 'status' ? turn.fault.status : 500;
      return { ok: false, status, message: (turn.fault.kind === 'status' ? turn.fault.message : undefined) ?? `mock LLM: scripted HTTP ${status}` };
    }
    const body = JSON.parse(bodyText(wire.renderJson(turn, { ...rules, sequence: record.sequence, body: line?.body }))) as unknown;
    return { ok: true, body };
  }

  private reject(record: RecordedRequest, response: http.ServerResponse, route: Route, what: string): void {
    Object.assign(record, { valid: false, outcome: 'invalid' });
    sendJson(response, 400, route.wire.renderError(400, `mock LLM: invalid ${what} request: ${record.issues.join('; ')}`));
  }

  private embeddings(route: Route, record: RecordedRequest, response: http.ServerResponse): void {
    record.model = String((record.body as { model?: unknown }).model ?? '');
    record.issues = validateEmbeddingRequest(record.body);
    if (record.issues.length > 0) {
      this.reject(record, response, route, 'embeddings');
      return;
    }
    const json = JSON.stringify(renderEmbeddings(record.body, this.options.embeddingDimensions ?? 64));
    const fault = this.embeddingFaults.shift();
    if (!fault) {
      sendText(response, 200, json);
      return;
    }
    record.outcome = 'fault';
    applyFault(fault, openAiWire, response, { json, frames: undefined });
  }

  private async generate(route: Route, record: RecordedRequest, response: http.ServerResponse, closed: AbortSignal, credential: string): Promise<void> {
    const { wire } = route;
    record.model = wire.modelOf(record.body, route.pathModel);
    record.stream = wire.wantsStream(record.body, route.streamPath ?? false);
    const rules: RuleContext = { model: record.model, flavour: route.flavour, memory: this.memory };
    record.issues = wire.validate(record.body, rules);
    if (record.issues.length > 0) return this.reject(record, response, route, wire.vendor);
    const rejection = wire.rules?.(record.body, rules);
    if (rejection) {
      Object.assign(record, { valid: false, outcome: 'invalid', issues: [rejection.message] });
      return sendJson(response, rejection.status, rejection.body);
    }
    const turn = this.nextTurn(record);
    if (!turn) {
      record.outcome = 'exhausted';
      return sendJson(response, 500, wire.renderError(500, 'mock LLM: no scripted turn left (enqueue more turns or set a fallback)'));
    }
    if (turn.delayMs && !(await delay(turn.delayMs, closed))) {
      record.outcome = 'client_gone';
      return;
    }
    const context = { ...rules, sequence: record.sequence, body: record.body };
    const json = bodyText(wire.renderJson(turn, context));
    const frames = record.stream ? wire.renderStream(turn, context, record.body) : undefined;
    if (turn.fault) {
      record.outcome = 'fault';
      return applyFault(turn.fault, wire, response, { json, frames }, credential);
    }
    if (frames) return sendEvents(response, frames);
    sendText(response, 200, json);
  }
}

export async function startMockLlm(options: MockLlmOptions = {}): Promise<MockLlm> {
  const mock = new MockLlmServer(options);
  const server = http.createServer((request, response) => {
    mock.handle(request, response).catch((error: unknown) => {
      process.stderr.write(`mock LLM: handler failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      if (!response.headersSent) sendJson(response, 500, { error: { message: 'mock LLM internal error' } });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    openAiBaseUrl: `${url}/v1`,
    baseUrlFor: (flavour) => `${url}/${flavour}/v1`,
    enqueue: (...turns) => mock.queue.push(...turns.map((turn) => mockTurnSchema.parse(turn))),
    failEmbeddings: (...faults) => mock.embeddingFaults.push(...faults),
    requests: mock.requests,
    generations: () => mock.requests.filter((request) => request.endpoint === 'generate'),
    batches: mock.batches.control,
    batchLines: () => mock.requests.filter((request) => request.endpoint === 'batch-line'),
    pending: () => mock.queue.length,
    // Closing the connections fires each response's close event, which cancels pending delays.
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
