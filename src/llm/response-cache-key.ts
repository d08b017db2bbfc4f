// The request key of the model-response cache (`m3 run --cache`): exact match only. A request is
// reduced to what decides the reply — provider, model as the driver resolved it, the driver's
// wire version, system text, messages (every image as the sha256 of its bytes and its media
// type), tools, tool choice, sampling parameters and the trial number (each trial is its own
// sample) — redacted (src/log/redact.ts), then serialised with sorted keys. The key is the
// sha256 of that text, so an imported entry's key can be recomputed from its stored request.
// Never an API key or a header: neither is part of a GenerateRequest.
import { createHash } from 'node:crypto';
import type { ContentPart } from '../core/content.js';
import type { Message } from '../core/messages.js';
import { redactValue } from '../log/redact.js';
import { stableStringify } from '../mcp/tools-hash.js';
import type { GenerateRequest } from './types.js';

/**
 * Bumped when what a driver sends for the same neutral request changes (a mapper rewrite), so
 * entries recorded by the old wire format stop matching. Per provider, so one rewrite does not
 * discard the others' entries.
 */
const wireVersions: Record<string, string> = { openai: '1', anthropic: '1', gemini: '1', ollama: '1' };

function wireVersionOf(provider: string): string {
  return wireVersions[provider] ?? '1';
}

function canonicalPart(part: ContentPart): unknown {
  if (part.type === 'text') return part;
  return { type: 'image', mediaType: part.mediaType, sha256: createHash('sha256').update(Buffer.from(part.data, 'base64')).digest('hex') };
}

/** Image facts and undelivered-image notes are left out: drivers never send them (they name local paths). */
function canonicalMessage(message: Message): unknown {
  if (message.role === 'system') return message;
  if (message.role === 'tool')
    return {
      role: 'tool',
      results: message.results.map((result) => ({
        callId: result.callId,
        name: result.name,
        isError: result.isError,
        content: result.content.map(canonicalPart),
      })),
    };
  if (message.role === 'user') return { role: 'user', content: message.content.map(canonicalPart) };
  return { ...message, content: message.content.map(canonicalPart) };
}

export interface CacheIdentity {
  provider: string;
  model: string;
}

/** The canonical request: what the key is taken of and what the cache stores beside it. */
export function canonicalRequest(identity: CacheIdentity, request: GenerateRequest): unknown {
  return redactValue({
    provider: identity.provider,
    model: identity.model,
    wire: wireVersionOf(identity.provider),
    system: request.system ?? null,
    messages: request.messages.map(canonicalMessage),
    tools: request.tools,
    toolChoice: request.toolChoice ?? 'auto',
    maxTokens: request.maxTokens,
    temperature: request.temperature ?? null,
    seed: request.seed ?? null,
    trial: request.context?.trial ?? 1,
  });
}

/** The key of a canonical request (as stored, or as read back from an export line). */
export function keyOfCanonical(canonical: unknown): string {
  return createHash('sha256').update(stableStringify(canonical)).digest('hex');
}
