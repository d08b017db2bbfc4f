// OpenAI Batch API backend (`openai:` models with --batch): the requests become a JSONL file
// (one `{custom_id, method: "POST", url: "/v1/chat/completions", body}` line each, the body as the
// synchronous driver would send it), uploaded with purpose "batch"; the job is created with a 24 h
// completion window, polled, and its output file (and error file) read back line by line.
import type OpenAI from 'openai';
import { toFile } from 'openai';
import { resolveEndpoint } from '../../config/providers.js';
import { ProviderError } from '../../errors/index.js';
import { conformImages } from '../conform-images.js';
import { createOpenAiClient } from '../openai/driver.js';
import { toOpenAiRequest } from '../openai/request.js';
import { fromOpenAiResponse } from '../openai/response.js';
import { resolveChatPreset } from '../presets.js';
import { roundOf } from '../tool-arguments.js';
import type { DriverContext, GenerateRequest } from '../types.js';
import { answered, type BatchBackend, type BatchItemResult, type BatchJobState } from './types.js';

const chatUrl = '/v1/chat/completions';

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

export function createOpenAiBatchBackend(modelWithOptions: string, context: DriverContext): BatchBackend {
  const { model, preset } = resolveChatPreset('openai', modelWithOptions);
  const id = `openai:${model}`;
  const endpoint = resolveEndpoint('openai', context.env, id);
  const client = createOpenAiClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, timeoutMs: context.timeoutMs });

  async function lineOf(customId: string, request: GenerateRequest): Promise<string> {
    const conformed = await conformImages(request, preset.imageTypes, `the ${preset.name} preset`);
    const { body } = toOpenAiRequest(conformed.request, model, preset);
    return JSON.stringify({ custom_id: customId, method: 'POST', url: chatUrl, body });
  }

  function resultOf(line: OutputLine, request: GenerateRequest, vendorBatchId: string): BatchItemResult {
    const status = line.response?.status_code ?? 0;
    if (line.error || status !== 200 || !line.response?.body) {
      const reason = line.error
        ? `${line.error.code ?? 'error'}: ${line.error.message ?? ''}`
        : `HTTP ${status}: ${JSON.stringify(line.response?.body ?? null).slice(0, 300)}`;
      return { kind: 'unanswered', reason };
    }
    const mapped = fromOpenAiResponse(line.response.body, { round: roundOf(request.messages), spec: id, reasoningTokensApart: preset.reasoningTokensApart });
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
      const lines = await Promise.all(items.map((item) => lineOf(item.customId, item.request)));
      const file = await client.files.create({ file: await toFile(Buffer.from(`${lines.join('\n')}\n`), 'm3bench-batch.jsonl'), purpose: 'batch' });
      const job = await client.batches.create({ input_file_id: file.id, endpoint: chatUrl, completion_window: '24h', metadata: { source: 'm3bench' } });
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
