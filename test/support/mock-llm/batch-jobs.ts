// The mock's provider batch APIs, as documented by each vendor: OpenAI (POST /v1/files with
// purpose "batch", POST /v1/batches, GET /v1/batches/<id>, GET /v1/files/<id>/content), Anthropic
// Message Batches (POST /v1/messages/batches, GET .../<id>, GET .../<id>/results as JSONL) and
// Gemini batch mode (POST /v1beta/models/<model>:batchGenerateContent, GET /v1beta/batches/<id>).
// A job answers nothing until it ends: after `pollsBeforeDone` status reads (never while `hold`),
// it completes (each line answered from the turn queue, in line order, through the same wire
// renderer as a synchronous request; a turn with a fault makes that line an error) or, with
// `outcome: 'expire'`, expires with no line answered. Request shapes are checked per vendor in
// batch-wire.ts; what a real API refuses at creation is an HTTP 400 here too.
import type http from 'node:http';
import { sendJson, sendText } from './http-plumbing.js';
import { createJob, jobView, resultsFile, type BatchRoute, type LineResult, type MockBatchJob } from './batch-wire.js';

export type { MockBatchJob, LineResult };

export interface BatchControl {
  /** While true every job stays pending (a run can be killed while its job waits). */
  hold: boolean;
  /** Status reads a job answers "pending" before it ends (default 1). */
  pollsBeforeDone: number;
  /** How jobs end when they end: answered, or expired with no line answered. */
  outcome: 'complete' | 'expire';
  /** Every job so far, in creation order. */
  jobs: MockBatchJob[];
}

/** The route of a batch API request, or undefined for any other path. */
export function batchRouteOf(method: string, path: string): BatchRoute | undefined {
  const tail = (pattern: RegExp) => pattern.exec(path)?.[1];
  if (method === 'POST' && path.endsWith('/v1/files')) return { kind: 'openai-upload' };
  if (method === 'GET' && tail(/\/v1\/files\/([^/]+)\/content$/)) return { kind: 'openai-file', id: tail(/\/v1\/files\/([^/]+)\/content$/) ?? '' };
  if (method === 'POST' && path.endsWith('/v1/batches')) return { kind: 'openai-create' };
  if (method === 'GET' && tail(/\/v1\/batches\/([^/]+)$/)) return { kind: 'openai-get', id: tail(/\/v1\/batches\/([^/]+)$/) ?? '' };
  if (method === 'POST' && path.endsWith('/v1/messages/batches')) return { kind: 'anthropic-create' };
  if (method === 'GET' && tail(/\/v1\/messages\/batches\/([^/]+)\/results$/))
    return { kind: 'anthropic-results', id: tail(/\/v1\/messages\/batches\/([^/]+)\/results$/) ?? '' };
  if (method === 'GET' && tail(/\/v1\/messages\/batches\/([^/]+)$/)) return { kind: 'anthropic-get', id: tail(/\/v1\/messages\/batches\/([^/]+)$/) ?? '' };
  const gemini = /\/models\/([^/:]+):batchGenerateContent$/.exec(path);
  if (method === 'POST' && gemini) return { kind: 'gemini-create', model: decodeURIComponent(gemini[1] ?? '') };
  if (method === 'GET' && tail(/\/v1beta\/batches\/([^/]+)$/)) return { kind: 'gemini-get', id: tail(/\/v1beta\/batches\/([^/]+)$/) ?? '' };
  return undefined;
}

/** Answers one batch line from the turn queue (the server's): its response body or its error. */
export type LineAnswerer = (job: MockBatchJob, index: number) => LineResult;

export class MockBatches {
  readonly control: BatchControl = { hold: false, pollsBeforeDone: 1, outcome: 'complete', jobs: [] };
  /** OpenAI uploads by file id: the JSONL text. */
  private readonly files = new Map<string, string>();

  constructor(private readonly answer: LineAnswerer) {}

  async handle(route: BatchRoute, request: http.IncomingMessage, text: string, response: http.ServerResponse, origin: string): Promise<void> {
    if (route.kind === 'openai-upload') return this.upload(request, text, response);
    if (route.kind === 'openai-file') {
      const file = this.files.get(route.id);
      if (file === undefined) return sendJson(response, 404, { error: { message: `No such File object: ${route.id}`, type: 'invalid_request_error' } });
      response.writeHead(200, { 'content-type': 'application/jsonl', 'content-length': Buffer.byteLength(file) });
      response.end(file);
      return;
    }
    if (route.kind === 'openai-create' || route.kind === 'anthropic-create' || route.kind === 'gemini-create') {
      const created = createJob(route, text, this.files, this.control.jobs.length + 1);
      if ('status' in created) return sendJson(response, created.status, created.body);
      this.control.jobs.push(created.job);
      return sendJson(response, 200, jobView(created.job, origin));
    }
    if (!('id' in route)) return sendJson(response, 404, { error: { message: 'mock LLM: not a batch route' } });
    const job = this.control.jobs.find((candidate) => candidate.id === route.id || candidate.id === `batches/${route.id}`);
    if (!job?.vendor.startsWith(route.kind.split('-')[0] ?? '')) return sendJson(response, 404, notFound(route.kind, route.id));
    if (route.kind === 'anthropic-results') {
      if (job.state === 'pending')
        return sendJson(response, 400, { type: 'error', error: { type: 'invalid_request_error', message: `Batch ${job.id} has not ended` } });
      return sendText(response, 200, resultsFile(job, 'anthropic'), { 'content-type': 'application/binary' });
    }
    this.advance(job);
    sendJson(response, 200, jobView(job, origin));
  }

  /** A status read: a pending job ends after `pollsBeforeDone` reads, unless held. */
  private advance(job: MockBatchJob): void {
    if (job.state !== 'pending' || this.control.hold) return;
    job.polls += 1;
    if (job.polls <= this.control.pollsBeforeDone) return;
    if (this.control.outcome === 'expire') job.state = 'expired';
    else {
      job.results = job.lines.map((_, index) => this.answer(job, index));
      job.state = 'ended';
    }
    if (job.vendor === 'openai') {
      this.files.set(`file-out-${job.sequence}`, resultsFile(job, 'openai-output'));
      this.files.set(`file-err-${job.sequence}`, resultsFile(job, 'openai-errors'));
    }
  }

  private async upload(request: http.IncomingMessage, text: string, response: http.ServerResponse): Promise<void> {
    const form = await new Request('http://127.0.0.1/upload', {
      method: 'POST',
      headers: { 'content-type': String(request.headers['content-type'] ?? '') },
      body: text,
    })
      .formData()
      .catch(() => undefined);
    const file = form?.get('file');
    const purpose = form?.get('purpose');
    if (!form || typeof file === 'string' || !file)
      return sendJson(response, 400, { error: { message: "mock LLM: 'file' is a required multipart field", type: 'invalid_request_error' } });
    if (purpose !== 'batch')
      return sendJson(response, 400, {
        error: { message: `mock LLM: purpose must be 'batch' for a batch input file, got ${String(purpose)}`, type: 'invalid_request_error' },
      });
    const id = `file-in-${this.files.size + 1}`;
    const content = await file.text();
    this.files.set(id, content);
    sendJson(response, 200, {
      id,
      object: 'file',
      bytes: Buffer.byteLength(content),
      created_at: Math.floor(Date.now() / 1000),
      filename: file.name,
      purpose: 'batch',
      status: 'processed',
    });
  }
}

function notFound(kind: string, id: string): unknown {
  if (kind.startsWith('anthropic')) return { type: 'error', error: { type: 'not_found_error', message: `No batch with id ${id}` } };
  if (kind.startsWith('gemini')) return { error: { code: 404, message: `Batch batches/${id} not found`, status: 'NOT_FOUND' } };
  return { error: { message: `No batch found with id '${id}'.`, type: 'invalid_request_error' } };
}
