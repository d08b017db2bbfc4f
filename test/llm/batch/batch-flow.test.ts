// Each vendor's batch flow through its real SDK against the mock's batch endpoints: requests of
// concurrently waiting episodes go out as one job, are polled until the job ends and come back
// mapped like synchronous answers; an errored line and an expired job go to the ordinary path.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI, { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { BatchCollector, checkBatchModel, createBatchBackend, type BatchBackend, type BatchLedger } from '../../../src/llm/batch/index.js';
import { createDriver } from '../../../src/llm/registry.js';
import type { GenerateRequest } from '../../../src/llm/types.js';
import type { MockLlm, MockTurn } from '../../support/mock-llm/index.js';
import { envFor, episodeTools, firstRequest, specs, taskImage, useMockLlm } from '../helpers.js';

type BatchVendor = 'openai' | 'openai-responses' | 'anthropic' | 'gemini' | 'qwen';
const batchVendors: BatchVendor[] = ['openai', 'openai-responses', 'anthropic', 'gemini', 'qwen'];

/** Alibaba Cloud Model Studio's OpenAI-compatible Batch API, through the qwen preset against the mock's OpenAI routes. */
const qwenSpec = 'qwen:qwen-vl-max';
const specOf = (vendor: BatchVendor) => (vendor === 'qwen' ? qwenSpec : specs[vendor]);
function envOf(vendor: BatchVendor, mock: MockLlm): Record<string, string> {
  if (vendor === 'qwen') return { QWEN_BASE_URL: mock.openAiBaseUrl, DASHSCOPE_API_KEY: 'sk-test-dashscope-key-0000000000' };
  return envFor(vendor, mock);
}

interface MemoryLedger extends BatchLedger {
  jobs: Map<string, { requests: Array<{ customId: string; key: string }>; state: string; settled: Map<string, string> }>;
}

function memoryLedger(): MemoryLedger {
  const jobs: MemoryLedger['jobs'] = new Map();
  return {
    jobs,
    recorded: async (id, requests) => {
      jobs.set(id, { requests: [...requests], state: 'pending', settled: new Map() });
    },
    updated: (id, state) => {
      const job = jobs.get(id);
      if (job) job.state = state;
    },
    settled: (id, customId, outcome) => jobs.get(id)?.settled.set(customId, outcome),
    pending: () => [],
  };
}

async function collectorFor(vendor: BatchVendor, mock: MockLlm, ledger: BatchLedger) {
  const context = { env: envOf(vendor, mock), timeoutMs: 120_000 };
  const driver = await createDriver(specOf(vendor), context);
  const backend = await createBatchBackend(specOf(vendor), context);
  let sequence = 0;
  const collector = new BatchCollector(backend, driver, ledger, {
    maxSize: 3,
    windowMs: 5_000,
    pollMs: 10,
    pollMaxMs: 40,
    keyOf: () => `key${(sequence += 1)}`,
  });
  return { collector, driver: collector.wrap() };
}

async function threeRequests(): Promise<GenerateRequest[]> {
  const image = await taskImage();
  return ['first', 'second', 'third'].map((name) => {
    const request = firstRequest(image);
    return { ...request, messages: [{ role: 'user', content: [{ type: 'text', text: `Task ${name}: what is in this image?` }, image] }] };
  });
}

const answers: MockTurn[] = [
  { toolCalls: [{ name: 'ocr_read_text', arguments: { image: 'media/one.png' } }], usage: { inputTokens: 800, outputTokens: 40 } },
  { text: 'A blue square.', usage: { inputTokens: 700, outputTokens: 10 } },
  { text: 'A red field.', usage: { inputTokens: 600, outputTokens: 12 } },
];

/** The image of each batch line's first user turn, in the vendor's own shape. */
function lineImage(vendor: BatchVendor, body: unknown): string | undefined {
  const text = JSON.stringify(body);
  if (vendor !== 'anthropic' && vendor !== 'gemini') return /data:image\/png;base64,([A-Za-z0-9+/=]+)/.exec(text)?.[1];
  return /"data":"([A-Za-z0-9+/=]+)"/.exec(text)?.[1];
}

describe.each(batchVendors)('%s batch API through its SDK against the mock', (vendor) => {
  const getMock = useMockLlm();

  it('submits the waiting requests as one job, polls it and maps each answer like a synchronous one', async () => {
    const mock = getMock();
    mock.batches.pollsBeforeDone = 2;
    mock.enqueue(...answers);
    const ledger = memoryLedger();
    const { collector, driver } = await collectorFor(vendor, mock, ledger);
    const requests = await threeRequests();
    const responses = await Promise.all(requests.map((request) => driver.generate(request)));

    expect(mock.batches.jobs).toHaveLength(1);
    expect(mock.batches.jobs[0]?.state).toBe('ended');
    expect(mock.generations()).toHaveLength(0);
    const lines = mock.batchLines();
    expect(lines.map((line) => line.valid)).toEqual([true, true, true]);
    // Each vendor's own line shape: OpenAI's and DashScope's file lines name the endpoint the job was created for.
    if (vendor === 'openai-responses') expect(mock.batches.jobs[0]?.endpoint).toBe('/v1/responses');
    if (vendor === 'openai' || vendor === 'qwen') expect(mock.batches.jobs[0]?.endpoint).toBe('/v1/chat/completions');
    const image = await taskImage();
    for (const line of lines) expect(lineImage(vendor, line.body)).toBe(image.data);
    expect(JSON.stringify(lines[0]?.body)).toContain('Task first');
    expect(JSON.stringify(lines[0]?.body)).toContain(episodeTools[0]?.name);
    expect(responses[0]?.toolCalls.map((call) => call.name)).toEqual(['ocr_read_text']);
    expect(responses[0]?.toolCalls[0]?.arguments).toEqual({ image: 'media/one.png' });
    expect(responses.slice(1).map((response) => response.text)).toEqual(['A blue square.', 'A red field.']);
    expect(responses.map((response) => response.usage.inputTokens)).toEqual([800, 700, 600]);
    // The job was polled (pending twice) before its results were read.
    const statusReads = mock.requests.filter(
      (request) => request.endpoint === 'batch' && request.method === 'GET' && !request.path.endsWith('/content') && !request.path.endsWith('/results'),
    );
    expect(statusReads.length).toBeGreaterThanOrEqual(3);
    expect(collector.counts).toMatchObject({ jobs: 1, submitted: 3, answered: 3, fallback: 0, answeredUsage: { inputTokens: 2100, outputTokens: 62 } });
    // Each answer says which job answered it: the run bills it at the batch price.
    expect(responses.map((response) => response.batch?.vendorBatchId)).toEqual(Array(3).fill(mock.batches.jobs[0]?.id));
    const [job] = [...ledger.jobs.values()];
    expect(job?.state).toBe('ended');
    expect(new Set(job?.requests.map((request) => request.customId)).size).toBe(3);
    expect([...(job?.settled.values() ?? [])]).toEqual(['answered', 'answered', 'answered']);
  });

  it('sends a request whose line errored on the ordinary path and keeps the others from the job', async () => {
    const mock = getMock();
    mock.enqueue(answers[0] as MockTurn, { fault: { kind: 'status', status: 500, message: 'line failed' } }, answers[2] as MockTurn, {
      text: 'Answered the ordinary way.',
    });
    const ledger = memoryLedger();
    const { collector, driver } = await collectorFor(vendor, mock, ledger);
    const responses = await Promise.all((await threeRequests()).map((request) => driver.generate(request)));

    expect(responses.map((response) => response.text)).toEqual(['', 'Answered the ordinary way.', 'A red field.']);
    expect(responses.map((response) => response.batch !== undefined)).toEqual([true, false, true]);
    expect(mock.generations()).toHaveLength(1);
    expect(JSON.stringify(mock.generations()[0]?.body)).toContain('Task second');
    expect(collector.counts).toMatchObject({ jobs: 1, answered: 2, fallback: 1 });
    const [job] = [...ledger.jobs.values()];
    expect([...(job?.settled.values() ?? [])].sort()).toEqual(['answered', 'answered', 'fallback']);
  });

  it('sends every request of an expired job on the ordinary path', async () => {
    const mock = getMock();
    mock.batches.outcome = 'expire';
    mock.enqueue(...answers);
    const ledger = memoryLedger();
    const { collector, driver } = await collectorFor(vendor, mock, ledger);
    const responses = await Promise.all((await threeRequests()).map((request) => driver.generate(request)));

    expect(mock.batches.jobs[0]?.state).toBe('expired');
    expect(mock.batchLines()).toHaveLength(0);
    expect(mock.generations()).toHaveLength(3);
    expect(responses.map((response) => response.usage.inputTokens)).toEqual([800, 700, 600]);
    expect(collector.counts).toMatchObject({ jobs: 1, answered: 0, fallback: 3 });
    expect([...ledger.jobs.values()][0]?.state).toBe('expired');
  });
});

describe('a request whose episode stopped waiting', () => {
  /** One request per job, polled quickly, requests told apart by their messages. */
  const oneRequestJobs = { maxSize: 1, windowMs: 5_000, pollMs: 10, pollMaxMs: 40, keyOf: (request: GenerateRequest) => JSON.stringify(request.messages) };
  const getMock = useMockLlm();

  it('is not submitted again when the same request is made again: it waits for the job that holds it', async () => {
    const mock = getMock();
    mock.batches.hold = true;
    mock.enqueue({ text: 'Answered once.' });
    const context = { env: envFor('anthropic', mock), timeoutMs: 120_000 };
    const driver = await createDriver(specs.anthropic, context);
    const collector = new BatchCollector(await createBatchBackend(specs.anthropic, context), driver, memoryLedger(), oneRequestJobs);
    const [request] = await threeRequests();
    const stop = new AbortController();
    const first = collector.generate(request as GenerateRequest, { signal: stop.signal });
    while (mock.batches.jobs.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort(new Error('task timeout'));
    await expect(first).rejects.toThrow('task timeout');
    const again = collector.generate(request as GenerateRequest);
    mock.batches.hold = false;
    expect((await again).text).toBe('Answered once.');
    expect(mock.batches.jobs).toHaveLength(1);
    expect(mock.generations()).toHaveLength(0);
    expect(collector.counts).toMatchObject({ jobs: 1, submitted: 1, resumed: 1, answered: 1, fallback: 0 });
  });

  it('is not submitted again when its episode stopped waiting while the job was being created', async () => {
    const mock = getMock();
    mock.enqueue({ text: 'Answered once.' });
    const context = { env: envFor('anthropic', mock), timeoutMs: 120_000 };
    const driver = await createDriver(specs.anthropic, context);
    const backend = await createBatchBackend(specs.anthropic, context);
    // The job's creation is held until the episode has stopped waiting and the request is made again.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const submitStarted = new Promise<void>((resolve) => (started = resolve));
    const held: BatchBackend = {
      id: backend.id,
      submit: async (items) => {
        started();
        await released;
        return backend.submit(items);
      },
      poll: (vendorBatchId) => backend.poll(vendorBatchId),
      results: (vendorBatchId, requests) => backend.results(vendorBatchId, requests),
    };
    const collector = new BatchCollector(held, driver, memoryLedger(), oneRequestJobs);
    const [request] = await threeRequests();
    const stop = new AbortController();
    const first = collector.generate(request as GenerateRequest, { signal: stop.signal });
    await submitStarted;
    stop.abort(new Error('task timeout'));
    await expect(first).rejects.toThrow('task timeout');
    const again = collector.generate(request as GenerateRequest);
    release();
    expect((await again).text).toBe('Answered once.');
    expect(mock.batches.jobs).toHaveLength(1);
    expect(mock.generations()).toHaveLength(0);
    expect(collector.counts).toMatchObject({ jobs: 1, submitted: 1, resumed: 1, answered: 1, fallback: 0 });
  });

  it('refuses a provider without a batch API, saying why and naming those that have one', async () => {
    const works = '(batch works with openai, openai-responses, anthropic, gemini, google, qwen, dashscope)';
    expect(() => checkBatchModel('replay:gt')).toThrow('--batch: replay:gt has no provider batch API here');
    for (const spec of ['google:gemini-2.5-flash', 'openai-responses:gpt-4.1', 'qwen:qwen-vl-max', 'dashscope:qwen-vl-plus'])
      expect(() => checkBatchModel(spec)).not.toThrow();
    await expect(createBatchBackend('ollama:qwen2.5-vl', { env: {}, timeoutMs: 1000 })).rejects.toThrow(
      `--batch: ollama:qwen2.5-vl has no provider batch API here: a local OpenAI-compatible server, which documents no batch API ${works}`,
    );
    expect(() => checkBatchModel('deepseek:deepseek-chat')).toThrow(
      `--batch: deepseek:deepseek-chat has no provider batch API here: DeepSeek documents no batch API ${works}`,
    );
    expect(() => checkBatchModel('xai:grok-4')).toThrow("xAI's Batch API is its own");
    expect(() => checkBatchModel('together:meta-llama/Llama-Vision')).toThrow("Together AI's Batch API differs from OpenAI's");
  });
});

describe('the mock refuses batch requests the vendors document as invalid', () => {
  const getMock = useMockLlm();

  it('OpenAI: an input file with a duplicate custom_id fails validation, and a wrong purpose is refused', async () => {
    const mock = getMock();
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: mock.openAiBaseUrl, maxRetries: 0 });
    const line = (customId: string) =>
      JSON.stringify({
        custom_id: customId,
        method: 'POST',
        url: '/v1/chat/completions',
        body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
      });
    const file = await client.files.create({ file: await toFile(Buffer.from(`${line('a')}\n${line('a')}\n`), 'in.jsonl'), purpose: 'batch' });
    const job = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const polled = await client.batches.retrieve(job.id);
    expect(polled.status).toBe('failed');
    expect(polled.errors?.data?.map((error) => error.message)).toEqual([expect.stringContaining('duplicate custom_id a')]);
    await expect(client.files.create({ file: await toFile(Buffer.from(line('b')), 'in.jsonl'), purpose: 'assistants' })).rejects.toMatchObject({ status: 400 });
  });

  it('Anthropic: duplicate custom ids and ids outside ^[a-zA-Z0-9_-]{1,64}$ are refused with HTTP 400', async () => {
    const mock = getMock();
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: mock.url, maxRetries: 0 });
    const params = { model: 'claude-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hi' }] };
    await expect(
      client.messages.batches.create({
        requests: [
          { custom_id: 'same', params },
          { custom_id: 'same', params },
        ],
      }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(client.messages.batches.create({ requests: [{ custom_id: 'has space', params }] })).rejects.toMatchObject({ status: 400 });
    expect(mock.batches.jobs).toHaveLength(0);
  });

  it('Gemini: a batch without inlined requests is refused with HTTP 400', async () => {
    const mock = getMock();
    const client = new GoogleGenAI({ apiKey: 'AIza-test', vertexai: false, httpOptions: { baseUrl: mock.url, retryOptions: { attempts: 1 } } });
    await expect(client.batches.create({ model: 'gemini-2.5-flash', src: [] })).rejects.toMatchObject({ status: 400 });
    expect(mock.batches.jobs).toHaveLength(0);
  });
});
