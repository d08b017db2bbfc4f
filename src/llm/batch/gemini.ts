// Gemini batch mode backend (`gemini:` models with --batch): one
// POST /v1beta/models/<model>:batchGenerateContent with the requests inlined (each with
// `metadata.key` = its custom id, contents and config as the synchronous driver would send them),
// polled through GET /v1beta/batches/<id> until the job leaves PENDING/RUNNING; a SUCCEEDED job's
// inlined responses are mapped like generateContent responses, an errored one goes to the
// ordinary path, and an EXPIRED, FAILED or CANCELLED job has no results (all go to it).
import type { BatchJob, InlinedRequest } from '@google/genai';
import { resolveEndpoint } from '../../config/providers.js';
import { conformImages } from '../conform-images.js';
import { geminiClient } from '../gemini/client.js';
import { toGeminiRequest } from '../gemini/request.js';
import { fromGeminiResponse } from '../gemini/response.js';
import { geminiImageTypes } from '../image-types.js';
import { roundOf } from '../tool-arguments.js';
import type { DriverContext } from '../types.js';
import { answered, type BatchBackend, type BatchItemResult, type BatchJobState } from './types.js';

function stateOf(state: BatchJob['state']): BatchJobState {
  switch (state) {
    case 'JOB_STATE_SUCCEEDED':
      return 'ended';
    case 'JOB_STATE_EXPIRED':
      return 'expired';
    case 'JOB_STATE_FAILED':
      return 'failed';
    case 'JOB_STATE_CANCELLED':
      return 'canceled';
    default:
      return 'pending';
  }
}

export function createGeminiBatchBackend(model: string, context: DriverContext): BatchBackend {
  const id = `gemini:${model}`;
  const endpoint = resolveEndpoint('gemini', context.env, id);
  const client = geminiClient(endpoint, context.timeoutMs);

  return {
    id,
    async submit(items) {
      const inlined: InlinedRequest[] = await Promise.all(
        items.map(async (item) => {
          const conformed = await conformImages(item.request, geminiImageTypes, 'Gemini');
          const { params } = toGeminiRequest(conformed.request, model);
          return { contents: params.contents, ...(params.config ? { config: params.config } : {}), metadata: { key: item.customId } };
        }),
      );
      const job = await client.batches.create({ model, src: inlined, config: { displayName: `m3bench-${items.length}` } });
      if (!job.name) throw new Error(`${id}: the batch create response names no job`);
      return { vendorBatchId: job.name };
    },
    async poll(vendorBatchId) {
      const job = await client.batches.get({ name: vendorBatchId });
      return { state: stateOf(job.state), detail: String(job.state ?? 'JOB_STATE_UNSPECIFIED') };
    },
    async results(vendorBatchId, requests) {
      const job = await client.batches.get({ name: vendorBatchId });
      const results = new Map<string, BatchItemResult>();
      for (const line of job.dest?.inlinedResponses ?? []) {
        const customId = line.metadata?.key;
        const request = customId ? requests.get(customId) : undefined;
        if (!customId || !request) continue;
        if (line.error || !line.response) {
          results.set(customId, { kind: 'unanswered', reason: `error ${line.error?.code ?? ''}: ${line.error?.message ?? 'no response'}` });
          continue;
        }
        const mapped = fromGeminiResponse(line.response, { round: roundOf(request.messages), spec: id });
        results.set(customId, answered({ ...mapped, raw: { request: { batch: vendorBatchId, customId }, response: line.response } }, 0));
      }
      return results;
    },
  };
}
