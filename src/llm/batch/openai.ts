// OpenAI Batch API backend (`m3 run --batch` with `openai:`, `openai-responses:`, and the
// OpenAI-compatible presets whose vendor documents the same Batch API: `qwen:` / `dashscope:`,
// Alibaba Cloud Model Studio's "OpenAI compatible - Batch (file input)"). The requests become a
// JSONL file (one `{custom_id, method: "POST", url, body}` line each, the body as the synchronous
// driver would send it, `url` /v1/chat/completions or /v1/responses), uploaded with purpose
// "batch"; the job is created with a 24 h completion window, polled, and its output file (and
// error file) read back line by line and mapped by the synchronous driver's response mapper.
import type OpenAI from 'openai';
import { toFile } from 'openai';
import { resolveEndpoint, type EndpointName } from '../../config/providers.js';
import { ProviderError } from '../../errors/index.js';
import { conformImages } from '../conform-images.js';
import { responsesImageTypes } from '../image-types.js';
import { createOpenAiClient } from '../openai/driver.js';
import { toOpenAiRequest } from '../openai/request.js';
import { fromOpenAiResponse } from '../openai/response.js';
import { toResponsesRequest } from '../openai/responses-request.js';
import { fromResponsesResponse } from '../openai/responses-response.js';
import { resolveChatPreset } from '../presets.js';
import { roundOf } from '../tool-arguments.js';
import type { DriverContext, GenerateRequest, MappedResponse } from '../types.js';
import { answered, type BatchBackend, type BatchItemResult, type BatchJobState } from './types.js';

const states: Record<OpenAI.Batches.Batch['status'], BatchJobState> = {
  validating: 'pending',
  in_progress: 'pending',
  finalizing: 'pending',
  cancelling: 'pending',
  completed: 'ended',
  expired: 'expired',
  failed: 'failed',
  cancelled: 'canceled',
};

interface OutputLine {
  custom_id?: string;
  response?: { status_code?: number; body?: unknown } | null;
  error?: { code?: string; message?: string } | null;
}

function parseLines(text: string, file: string, spec: string): OutputLine[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      try {
        return JSON.parse(line) as OutputLine;
      } catch (error) {
        throw new ProviderError('transient', `${spec}: line ${index + 1} of batch file ${file} is not JSON (${(error as Error).message})`);
      }
    });
}

/** How one API's requests go into a batch line and its answers come back. */
interface LineWire {
  id: string;
  endpoint: EndpointName;
  url: '/v1/chat/completions' | '/v1/responses';
  bodyOf(request: GenerateRequest): Promise<unknown>;
  mapped(body: unknown, request: GenerateRequest): MappedResponse;
}

/** Chat Completions of an OpenAI-compatible preset (openai, qwen, dashscope), with its wire quirks. */
function chatWire(provider: EndpointName, modelWithOptions: string): LineWire {
  const { model, preset } = resolveChatPreset(provider, modelWithOptions);
  const id = `${provider}:${model}`;
  return {
    id,
    endpoint: provider,
    url: '/v1/chat/completions',
    async bodyOf(request) {
      const conformed = await conformImages(request, preset.imageTypes, `the ${preset.name} preset`);
      return toOpenAiRequest(conformed.request, model, preset).body;
    },
    mapped: (body, request) => fromOpenAiResponse(body, { round: roundOf(request.messages), spec: id, reasoningTokensApart: preset.reasoningTokensApart }),
  };
}

/** The Responses API (`openai-responses:`): OpenAI's Batch API accepts /v1/responses as the endpoint. */
function responsesWire(model: string): LineWire {
  const id = `openai-responses:${model}`;
  return {
    id,
    endpoint: 'openai',
    url: '/v1/responses',
    async bodyOf(request) {
      const conformed = await conformImages(request, responsesImageTypes, 'the Responses API');
      return toResponsesRequest(conformed.request, model).body;
    },
    mapped: (body) => fromResponsesResponse(body, { spec: id }),
  };
}

/** The backend of `provider:model`: a chat preset with a batch API, or the Responses API. */
export function createOpenAiBatchBackend(provider: 'openai' | 'openai-responses' | 'qwen' | 'dashscope', model: string, context: DriverContext): BatchBackend {
  const wire = provider === 'openai-responses' ? responsesWire(model) : chatWire(provider, model);
  const { id } = wire;
  const endpoint = resolveEndpoint(wire.endpoint, context.env, id);
  const client = createOpenAiClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, timeoutMs: context.timeoutMs });

  function resultOf(line: OutputLine, request: GenerateRequest, vendorBatchId: string): BatchItemResult {
    const status = line.response?.status_code ?? 0;
    if (line.error || status !== 200 || !line.response?.body) {
      const reason = line.error
        ? `${line.error.code ?? 'error'}: ${line.error.message ?? ''}`
        : `HTTP ${status}: ${JSON.stringify(line.response?.body ?? null).slice(0, 300)}`;
      return { kind: 'unanswered', reason };
    }
    const mapped = wire.mapped(line.response.body, request);
    return answered({ ...mapped, raw: { request: { batch: vendorBatchId, customId: line.custom_id }, response: line.response.body } }, 0);
  }

  async function readFile(fileId: string | null | undefined): Promise<OutputLine[]> {
    if (!fileId) return [];
    const response = await client.files.content(fileId);
    return parseLines(await response.text(), fileId, id);
  }

  return {
    id,
    async submit(items) {
      const lines = await Promise.all(
        items.map(async (item) => JSON.stringify({ custom_id: item.customId, method: 'POST', url: wire.url, body: await wire.bodyOf(item.request) })),
      );
      const file = await client.files.create({ file: await toFile(Buffer.from(`${lines.join('\n')}\n`), 'm3bench-batch.jsonl'), purpose: 'batch' });
      const job = await client.batches.create({ input_file_id: file.id, endpoint: wire.url, completion_window: '24h', metadata: { source: 'm3bench' } });
      return { vendorBatchId: job.id };
    },
    async poll(vendorBatchId) {
      const job = await client.batches.retrieve(vendorBatchId);
      const counts = job.request_counts;
      const detail = `${job.status}${counts ? ` ${counts.completed}/${counts.total} done, ${counts.failed} failed` : ''}`;
      return { state: states[job.status] ?? 'pending', detail };
    },
    async results(vendorBatchId, requests) {
      const job = await client.batches.retrieve(vendorBatchId);
      const lines = [...(await readFile(job.output_file_id)), ...(await readFile(job.error_file_id))];
      const results = new Map<string, BatchItemResult>();
      for (const line of lines) {
        const request = line.custom_id ? requests.get(line.custom_id) : undefined;
        if (line.custom_id && request) results.set(line.custom_id, resultOf(line, request, vendorBatchId));
      }
      return results;
    },
  };
}
