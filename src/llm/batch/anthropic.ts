// Anthropic Message Batches backend (`anthropic:` models with --batch): one
// POST /v1/messages/batches with `{custom_id, params}` per request (params as the synchronous
// driver would send them), polled until `processing_status` is `ended`, then the results JSONL
// (results_url) read back: succeeded lines are mapped like a Messages response; errored, expired
// and canceled lines go to the ordinary path.
import type Anthropic from '@anthropic-ai/sdk';
import { resolveEndpoint } from '../../config/providers.js';
import { fromAnthropicResponse } from '../anthropic/response.js';
import { toAnthropicRequest } from '../anthropic/request.js';
import { conformImages } from '../conform-images.js';
import { anthropicImageTypes } from '../image-types.js';
import { anthropicClient } from '../anthropic/client.js';
import type { DriverContext } from '../types.js';
import { answered, type BatchBackend, type BatchItemResult } from './types.js';

function unansweredReason(result: Anthropic.Messages.Batches.MessageBatchResult): string {
  if (result.type === 'errored') return `errored: ${result.error.error.type}: ${result.error.error.message}`;
  return result.type;
}

export function createAnthropicBatchBackend(model: string, context: DriverContext): BatchBackend {
  const id = `anthropic:${model}`;
  const endpoint = resolveEndpoint('anthropic', context.env, id);
  const client = anthropicClient(endpoint, context.timeoutMs);

  return {
    id,
    async submit(items) {
      const requests = await Promise.all(
        items.map(async (item) => {
          const conformed = await conformImages(item.request, anthropicImageTypes, 'Anthropic');
          return { custom_id: item.customId, params: toAnthropicRequest(conformed.request, model).body };
        }),
      );
      const job = await client.messages.batches.create({ requests });
      return { vendorBatchId: job.id };
    },
    async poll(vendorBatchId) {
      const job = await client.messages.batches.retrieve(vendorBatchId);
      const counts = job.request_counts;
      const detail = `${job.processing_status} ${counts.succeeded} succeeded, ${counts.errored} errored, ${counts.expired} expired, ${counts.processing} processing`;
      if (job.processing_status !== 'ended') return { state: 'pending', detail };
      const onlyExpired = counts.expired > 0 && counts.succeeded + counts.errored === 0;
      return { state: onlyExpired ? 'expired' : 'ended', detail };
    },
    async results(vendorBatchId, requests) {
      const results = new Map<string, BatchItemResult>();
      for await (const line of await client.messages.batches.results(vendorBatchId)) {
        if (!requests.has(line.custom_id)) continue;
        if (line.result.type !== 'succeeded') {
          results.set(line.custom_id, { kind: 'unanswered', reason: unansweredReason(line.result) });
          continue;
        }
        const mapped = fromAnthropicResponse(line.result.message, { spec: id });
        results.set(
          line.custom_id,
          answered({ ...mapped, raw: { request: { batch: vendorBatchId, customId: line.custom_id }, response: line.result.message } }, 0),
        );
      }
      return results;
    },
  };
}
