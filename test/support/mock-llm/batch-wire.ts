// Per-vendor shapes of the mock's batch APIs (batch-jobs.ts runs them): what each create request
// must look like (a real API's 400 otherwise, or for OpenAI's input file a job that fails
// validation), the job object each status read returns, and the results files.
export type BatchRoute =
  | { kind: 'openai-upload' | 'openai-create' | 'anthropic-create' }
  | { kind: 'openai-file' | 'openai-get' | 'anthropic-get' | 'anthropic-results' | 'gemini-get'; id: string }
  | { kind: 'gemini-create'; model: string };

export type LineResult = { ok: true; body: unknown } | { ok: false; status: number; message: string };

export interface MockBatchJob {
  id: string;
  sequence: number;
  vendor: 'openai' | 'anthropic' | 'gemini';
  /** OpenAI: the endpoint every line is sent to (`/v1/chat/completions` or `/v1/responses`). */
  endpoint?: string;
  model: string;
  /** Each request of the job: its custom id (Gemini: metadata.key) and its request body. */
  lines: Array<{ customId: string; body: unknown }>;
  state: 'pending' | 'ended' | 'expired' | 'failed';
  polls: number;
  createdAt: number;
  /** Set when the job ended: one per line, in line order. */
  results?: LineResult[];
  /** OpenAI: why the input file failed validation. */
  errors?: Array<{ line: number; message: string }>;
}

type Created = { job: MockBatchJob } | { status: number; body: unknown };

const anthropicCustomId = /^[a-zA-Z0-9_-]{1,64}$/;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function newJob(vendor: MockBatchJob['vendor'], id: string, sequence: number, model: string, lines: MockBatchJob['lines']): MockBatchJob {
  return { id, sequence, vendor, model, lines, state: 'pending', polls: 0, createdAt: Date.now() };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** OpenAI: the input file's lines, checked as the Batch API's validation step does. */
function openAiLines(file: string, endpoint: string): { lines: MockBatchJob['lines']; errors: Array<{ line: number; message: string }>; model: string } {
  const lines: MockBatchJob['lines'] = [];
  const errors: Array<{ line: number; message: string }> = [];
  const seen = new Set<string>();
  const models = new Set<string>();
  file
    .split('\n')
    .filter((line) => line.trim() !== '')
    .forEach((text, index) => {
      const line = index + 1;
      const value = parse(text);
      if (!isObject(value)) return errors.push({ line, message: 'line is not a JSON object' });
      const { custom_id: customId, method, url, body } = value;
      if (typeof customId !== 'string' || customId === '') return errors.push({ line, message: 'custom_id must be a non-empty string' });
      if (seen.has(customId)) return errors.push({ line, message: `duplicate custom_id ${customId}: custom_id must be unique within a batch` });
      seen.add(customId);
      if (method !== 'POST') errors.push({ line, message: `method must be POST, got ${String(method)}` });
      if (url !== endpoint) errors.push({ line, message: `url ${String(url)} does not match the batch endpoint ${endpoint}` });
      if (!isObject(body)) return errors.push({ line, message: 'body must be an object' });
      if (body.stream === true) errors.push({ line, message: 'stream is not supported in a batch' });
      if (typeof body.model === 'string') models.add(body.model);
      lines.push({ customId, body });
    });
  if (models.size > 1) errors.push({ line: 0, message: `a batch file must use one model, got ${[...models].join(', ')}` });
  if (lines.length === 0 && errors.length === 0) errors.push({ line: 0, message: 'the input file has no requests' });
  return { lines, errors, model: [...models][0] ?? '' };
}

function createOpenAi(text: string, files: ReadonlyMap<string, string>, sequence: number): Created {
  const body = parse(text);
  const bad = (message: string): Created => ({ status: 400, body: { error: { message, type: 'invalid_request_error', param: null, code: null } } });
  if (!isObject(body)) return bad('request body must be a JSON object');
  if (typeof body.input_file_id !== 'string') return bad("Missing required parameter: 'input_file_id'.");
  if (body.completion_window !== '24h') return bad(`Invalid completion_window ${String(body.completion_window)}: only '24h' is supported.`);
  // OpenAI's Batch API lists more endpoints (embeddings, completions, ...); the mock serves the two the harness sends.
  if (body.endpoint !== '/v1/chat/completions' && body.endpoint !== '/v1/responses')
    return bad(`mock LLM: batch endpoint ${String(body.endpoint)} is not served here (only /v1/chat/completions and /v1/responses)`);
  const file = files.get(body.input_file_id);
  if (file === undefined) return bad(`No such File object: ${body.input_file_id}`);
  const { lines, errors, model } = openAiLines(file, body.endpoint);
  const job = { ...newJob('openai', `batch_mock${sequence}`, sequence, model, lines), endpoint: body.endpoint };
  if (errors.length > 0) Object.assign(job, { state: 'failed', errors });
  return { job };
}

function createAnthropic(text: string, sequence: number): Created {
  const body = parse(text);
  const bad = (message: string): Created => ({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message } } });
  if (!isObject(body) || !Array.isArray(body.requests) || body.requests.length === 0)
    return bad('requests: a non-empty list of {custom_id, params} is required');
  const seen = new Set<string>();
  const lines: MockBatchJob['lines'] = [];
  for (const [index, item] of body.requests.entries()) {
    if (!isObject(item) || typeof item.custom_id !== 'string' || !anthropicCustomId.test(item.custom_id))
      return bad(`requests.${index}.custom_id: must match ^[a-zA-Z0-9_-]{1,64}$`);
    if (seen.has(item.custom_id)) return bad(`requests.${index}.custom_id: duplicate custom_id ${item.custom_id}; each must be unique in a batch`);
    seen.add(item.custom_id);
    if (!isObject(item.params)) return bad(`requests.${index}.params: Field required`);
    if (item.params.stream === true) return bad(`requests.${index}.params.stream: streaming is not supported in Message Batches`);
    lines.push({ customId: item.custom_id, body: item.params });
  }
  const model = String((lines[0]?.body as { model?: unknown }).model ?? '');
  return { job: newJob('anthropic', `msgbatch_mock${sequence}`, sequence, model, lines) };
}

function createGemini(text: string, model: string, sequence: number): Created {
  const body = parse(text);
  const bad = (message: string): Created => ({ status: 400, body: { error: { code: 400, message, status: 'INVALID_ARGUMENT' } } });
  const requests =
    isObject(body) && isObject(body.batch) && isObject(body.batch.inputConfig) && isObject(body.batch.inputConfig.requests)
      ? body.batch.inputConfig.requests.requests
      : undefined;
  if (!Array.isArray(requests) || requests.length === 0) return bad('batch.input_config.requests.requests: a non-empty list of inlined requests is required');
  const lines: MockBatchJob['lines'] = [];
  for (const [index, item] of requests.entries()) {
    if (!isObject(item) || !isObject(item.request)) return bad(`batch.input_config.requests.requests[${index}].request: required`);
    const key = isObject(item.metadata) && typeof item.metadata.key === 'string' ? item.metadata.key : String(index);
    const { model: _model, ...request } = item.request;
    lines.push({ customId: key, body: request });
  }
  return { job: newJob('gemini', `batches/mock${sequence}`, sequence, model, lines) };
}

export function createJob(route: BatchRoute, text: string, files: ReadonlyMap<string, string>, sequence: number): Created {
  if (route.kind === 'openai-create') return createOpenAi(text, files, sequence);
  if (route.kind === 'anthropic-create') return createAnthropic(text, sequence);
  if (route.kind === 'gemini-create') return createGemini(text, route.model, sequence);
  return { status: 404, body: { error: { message: 'mock LLM: not a batch create route' } } };
}

function counts(job: MockBatchJob): { total: number; ok: number; failed: number } {
  const ok = job.results?.filter((result) => result.ok).length ?? 0;
  return { total: job.lines.length, ok, failed: job.state === 'ended' ? job.lines.length - ok : job.state === 'pending' ? 0 : job.lines.length };
}

const iso = (ms: number) => new Date(ms).toISOString();

function openAiView(job: MockBatchJob): unknown {
  const { total, ok, failed } = counts(job);
  const status = { pending: job.polls === 0 ? 'validating' : 'in_progress', ended: 'completed', expired: 'expired', failed: 'failed' }[job.state];
  const seconds = Math.floor(job.createdAt / 1000);
  const done = job.state !== 'pending' && job.state !== 'failed';
  return {
    id: job.id,
    object: 'batch',
    endpoint: job.endpoint ?? '/v1/chat/completions',
    errors: job.errors
      ? { object: 'list', data: job.errors.map((error) => ({ code: 'invalid_request', message: error.message, line: error.line, param: null })) }
      : null,
    input_file_id: `file-in-${job.sequence}`,
    completion_window: '24h',
    status,
    output_file_id: done ? `file-out-${job.sequence}` : null,
    error_file_id: done && failed > 0 ? `file-err-${job.sequence}` : null,
    created_at: seconds,
    in_progress_at: job.polls > 0 ? seconds : null,
    expires_at: seconds + 86_400,
    completed_at: job.state === 'ended' ? seconds : null,
    expired_at: job.state === 'expired' ? seconds : null,
    failed_at: job.state === 'failed' ? seconds : null,
    request_counts: { total, completed: ok, failed },
    metadata: null,
  };
}

function anthropicView(job: MockBatchJob, origin: string): unknown {
  const { total, ok, failed } = counts(job);
  const ended = job.state !== 'pending';
  return {
    id: job.id,
    type: 'message_batch',
    processing_status: ended ? 'ended' : 'in_progress',
    request_counts: {
      processing: ended ? 0 : total,
      succeeded: ok,
      errored: job.state === 'ended' ? failed : 0,
      canceled: 0,
      expired: job.state === 'expired' ? total : 0,
    },
    created_at: iso(job.createdAt),
    expires_at: iso(job.createdAt + 86_400_000),
    ended_at: ended ? iso(Date.now()) : null,
    archived_at: null,
    cancel_initiated_at: null,
    results_url: ended ? `${origin}/v1/messages/batches/${job.id}/results` : null,
  };
}

const geminiStatus: Record<number, string> = { 400: 'INVALID_ARGUMENT', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };

function geminiView(job: MockBatchJob): unknown {
  const state = {
    pending: job.polls === 0 ? 'BATCH_STATE_PENDING' : 'BATCH_STATE_RUNNING',
    ended: 'BATCH_STATE_SUCCEEDED',
    expired: 'BATCH_STATE_EXPIRED',
    failed: 'BATCH_STATE_FAILED',
  }[job.state];
  const type = 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch';
  const output = job.results
    ? {
        inlinedResponses: {
          inlinedResponses: job.results.map((result, index) => ({
            ...(result.ok
              ? { response: result.body }
              : { error: { code: result.status, message: result.message, status: geminiStatus[result.status] ?? 'INTERNAL' } }),
            metadata: { key: job.lines[index]?.customId ?? String(index) },
          })),
        },
      }
    : undefined;
  const metadata = {
    '@type': type,
    model: `models/${job.model}`,
    displayName: `mock ${job.sequence}`,
    createTime: iso(job.createdAt),
    updateTime: iso(Date.now()),
    state,
    name: job.id,
    ...(output ? { output } : {}),
  };
  return { name: job.id, metadata, ...(job.state !== 'pending' ? { done: true, response: { ...metadata } } : {}) };
}

export function jobView(job: MockBatchJob, origin: string): unknown {
  if (job.vendor === 'openai') return openAiView(job);
  if (job.vendor === 'anthropic') return anthropicView(job, origin);
  return geminiView(job);
}

function anthropicLine(job: MockBatchJob, index: number): unknown {
  const customId = job.lines[index]?.customId;
  const result = job.results?.[index];
  if (!result) return { custom_id: customId, result: { type: 'expired' } };
  if (result.ok) return { custom_id: customId, result: { type: 'succeeded', message: result.body } };
  const type = result.status === 400 ? 'invalid_request_error' : result.status === 529 ? 'overloaded_error' : 'api_error';
  return { custom_id: customId, result: { type: 'errored', error: { type: 'error', error: { type, message: result.message } } } };
}

function openAiLine(job: MockBatchJob, index: number): unknown {
  const customId = job.lines[index]?.customId;
  const result = job.results?.[index];
  const id = `batch_req_${job.sequence}_${index + 1}`;
  if (!result)
    return {
      id,
      custom_id: customId,
      response: null,
      error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' },
    };
  const body = result.ok
    ? result.body
    : { error: { message: result.message, type: result.status === 400 ? 'invalid_request_error' : 'server_error', param: null, code: null } };
  return {
    id,
    custom_id: customId,
    response: { status_code: result.ok ? 200 : result.status, request_id: `req_${job.sequence}_${index + 1}`, body },
    error: null,
  };
}

/** A results file as JSONL: Anthropic's results, or OpenAI's output file (answered lines) or error file (the rest). */
export function resultsFile(job: MockBatchJob, kind: 'anthropic' | 'openai-output' | 'openai-errors'): string {
  const indexes = job.lines.map((_, index) => index);
  const lines =
    kind === 'anthropic'
      ? indexes.map((index) => anthropicLine(job, index))
      : indexes.filter((index) => (job.results?.[index]?.ok ?? false) === (kind === 'openai-output')).map((index) => openAiLine(job, index));
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}
