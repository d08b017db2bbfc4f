// Model calls and tool calls hang off an episode. Requests, responses and tool arguments are
// stored as redacted JSON (inline base64 images in requests and responses are reduced to size
// and hash); the attempts array keeps every retry the harness made. A request is stored as a
// delta against the previous request of its chain (migration 015) and rebuilt on read.
import type { ImagePart } from '../core/content.js';
import { type Store, selectAll, statement, writeTransaction } from './connection.js';
import { toJsonColumn, toOptional, toTextColumn, toTimeColumn } from './json-column.js';
import { StoreError } from '../errors/index.js';
import { fromRequestDelta, requestChainKey, requestDeltaSchema } from './request-delta.js';
import { rememberRequest, toStoredRequest } from './request-chains.js';
import { modelCallRowSchema, parseRows, toolCallRowSchema, type ModelCallRow, type ToolCallRow } from './rows.js';
import { modelCallInputSchema, parseInput, toolCallInputSchema, type ImageRecord, type ModelCallInput, type ToolCallInput } from './schemas.js';

const insertModelCallSql = `
  INSERT INTO model_calls (episode_id, round, purpose, request, request_delta, response, input_tokens, output_tokens,
    cached_tokens, latency_ms, attempts, error_class, error_message, images, image_count, image_bytes, image_tokens_est, agent,
    billing, vendor_batch_id, cost_usd, saved_usd, created_at)
  VALUES (@episodeId, @round, @purpose, @request, @requestDelta, @response, @inputTokens, @outputTokens,
    @cachedTokens, @latencyMs, @attempts, @errorClass, @errorMessage, @images, @imageCount, @imageBytes, @imageTokensEst, @agent,
    @billing, @vendorBatchId, @costUsd, @savedUsd, @createdAt)`;

const insertToolCallSql = `
  INSERT INTO tool_calls (episode_id, round, call_index, canonical_name, function_name, arguments,
    result_text, is_error, error_code, fallback_tier, fallback_error_code, condition_mark, duration_ms, images, agent, created_at)
  VALUES (@episodeId, @round, @callIndex, @canonicalName, @functionName, @arguments,
    @resultText, @isError, @errorCode, @fallbackTier, @fallbackErrorCode, @conditionMark, @durationMs, @images, @agent, @createdAt)`;

function explainCallConflict(episodeId: number) {
  return (code: string): string | undefined => {
    if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return `episode ${episodeId} does not exist; use the id startEpisode() returned`;
    if (code === 'SQLITE_CONSTRAINT_UNIQUE') return `a tool call with this round and call index is already stored for episode ${episodeId}`;
    return undefined;
  };
}

/** Stores one model request/response exchange with its usage and retry attempts; returns its id. */
export function recordModelCall(store: Store, input: ModelCallInput): number {
  const where = `recordModelCall(episode ${String(input.episodeId)}, round ${String(input.round)})`;
  const call = parseInput(modelCallInputSchema, input, where);
  // Stored as a delta against the chain's previous request (migration 015); rebuilt on read.
  const chain = requestChainKey(call.episodeId, call.agent, call.purpose);
  const request = toStoredRequest(store, chain, toJsonColumn(call.request, { elideBase64: true }));
  const params = {
    episodeId: call.episodeId,
    round: call.round,
    purpose: call.purpose,
    request: request.column,
    requestDelta: request.delta,
    response: toJsonColumn(call.response, { elideBase64: true }),
    inputTokens: call.usage.inputTokens,
    outputTokens: call.usage.outputTokens,
    cachedTokens: call.usage.cachedTokens,
    latencyMs: Math.round(call.latencyMs),
    attempts: toJsonColumn(call.attempts),
    errorClass: toOptional(call.errorClass),
    errorMessage: toTextColumn(call.errorMessage),
    images: toJsonColumn(call.images),
    imageCount: call.imagePayload.count,
    imageBytes: call.imagePayload.bytes,
    imageTokensEst: call.imagePayload.estimatedTokens,
    agent: toOptional(call.agent),
    billing: call.billing,
    vendorBatchId: toOptional(call.vendorBatchId),
    costUsd: toOptional(call.costUsd),
    savedUsd: toOptional(call.savedUsd),
    createdAt: toTimeColumn(call.createdAt),
  };
  const id = writeTransaction(
    store,
    where,
    () => Number(statement(store, insertModelCallSql).run(params).lastInsertRowid),
    explainCallConflict(call.episodeId),
  );
  rememberRequest(store, chain, request);
  return id;
}

function toolCallParams(input: ToolCallInput) {
  const where = `recordToolCall(episode ${String(input.episodeId)}, round ${String(input.round)}, call ${String(input.callIndex)})`;
  const call = parseInput(toolCallInputSchema, input, where);
  return {
    where,
    episodeId: call.episodeId,
    params: {
      episodeId: call.episodeId,
      round: call.round,
      callIndex: call.callIndex,
      canonicalName: call.canonicalName,
      functionName: toOptional(call.functionName),
      // A call without arguments is stored as JSON null, not SQL NULL, so "absent" stays visible.
      arguments: toJsonColumn(call.arguments ?? null),
      resultText: toTextColumn(call.resultText) ?? '',
      isError: call.isError ? 1 : 0,
      errorCode: toOptional(call.errorCode),
      fallbackTier: call.fallback?.tier ?? null,
      fallbackErrorCode: call.fallback?.originalErrorCode ?? null,
      conditionMark: call.condition ? JSON.stringify(call.condition) : null,
      durationMs: Math.round(call.durationMs),
      images: toJsonColumn(call.images),
      agent: toOptional(call.agent),
      createdAt: toTimeColumn(call.createdAt),
    },
  };
}

/** Stores one tool call and its normalised result; returns its id. */
export function recordToolCall(store: Store, input: ToolCallInput): number {
  const { where, episodeId, params } = toolCallParams(input);
  return writeTransaction(store, where, () => Number(statement(store, insertToolCallSql).run(params).lastInsertRowid), explainCallConflict(episodeId));
}

/**
 * Stores a round of parallel tool calls in one transaction: all of them or none.
 * @internal Exported for its tests.
 */
export function recordToolCalls(store: Store, inputs: readonly ToolCallInput[]): number[] {
  const prepared = inputs.map((input) => toolCallParams(input));
  const first = prepared[0];
  if (!first) return [];
  return writeTransaction(
    store,
    `recordToolCalls(episode ${first.episodeId}, ${prepared.length} calls)`,
    () => prepared.map(({ params }) => Number(statement(store, insertToolCallSql).run(params).lastInsertRowid)),
    explainCallConflict(first.episodeId),
  );
}

/** An episode's model calls, each request rebuilt whole (see request-delta.ts). */
export function modelCallsForEpisode(store: Store, episodeId: number): ModelCallRow[] {
  const rows = selectAll(store, 'SELECT * FROM model_calls WHERE episode_id = ? ORDER BY round, id', episodeId);
  return rebuildRequests(parseRows(modelCallRowSchema, rows, 'model_calls', store.file), store.file);
}

/** Replays each chain in id order (the order it was written in), so every delta meets its base. */
function rebuildRequests(rows: ModelCallRow[], file: string): ModelCallRow[] {
  const bases = new Map<string, unknown>();
  for (const row of [...rows].sort((a, b) => a.id - b.id)) {
    if (row.request === null) continue;
    const chain = requestChainKey(row.episodeId, row.agent, row.purpose);
    if (row.requestDelta) {
      const delta = requestDeltaSchema.safeParse(row.request);
      const rebuilt = delta.success ? fromRequestDelta(bases.get(chain), delta.data) : undefined;
      if (!rebuilt)
        throw new StoreError(
          `run store ${file}: model call ${row.id} holds a request delta without a matching earlier request in its chain; the store is damaged`,
        );
      row.request = rebuilt;
      row.requestDelta = false;
    }
    bases.set(chain, row.request);
  }
  return rows;
}

export interface EpisodeImageTokens {
  requests: number;
  /** Sum of the estimated image tokens of the episode's requests; null when one request has no estimate. */
  tokens: number | null;
}

/** Estimated image tokens of each episode of a run (migration 011), by episode id. */
export function imageTokensForRun(store: Store, runId: string): Map<number, EpisodeImageTokens> {
  const rows = selectAll(
    store,
    `SELECT m.episode_id AS episode, COUNT(*) AS requests, SUM(m.image_tokens_est) AS tokens, COUNT(*) - COUNT(m.image_tokens_est) AS unknown
       FROM model_calls m JOIN episodes e ON e.id = m.episode_id WHERE e.run_id = ? GROUP BY m.episode_id`,
    runId,
  ) as Array<{ episode: number; requests: number; tokens: number | null; unknown: number }>;
  return new Map(rows.map((row) => [row.episode, { requests: row.requests, tokens: row.unknown > 0 ? null : (row.tokens ?? 0) }]));
}

export function toolCallsForEpisode(store: Store, episodeId: number): ToolCallRow[] {
  const rows = selectAll(store, 'SELECT * FROM tool_calls WHERE episode_id = ? ORDER BY round, call_index', episodeId);
  return parseRows(toolCallRowSchema, rows, 'tool_calls', store.file);
}

export function getToolCall(store: Store, id: number): ToolCallRow | undefined {
  return parseRows(toolCallRowSchema, selectAll(store, 'SELECT * FROM tool_calls WHERE id = ?', id), 'tool_calls', store.file)[0];
}

/**
 * The stored facts of an image as it was sent to the model. Without `facts` (an image the
 * harness did not re-encode) the sizes come from the payload and the dimensions are unknown.
 * @internal Exported for its tests.
 */
export function toImageRecord(part: ImagePart): ImageRecord {
  const sentBytes = Buffer.byteLength(part.data, 'base64');
  if (!part.facts) return { mediaType: part.mediaType, originalBytes: sentBytes, sentBytes, width: null, height: null };
  return {
    mediaType: part.mediaType,
    originalMediaType: part.facts.originalMediaType,
    originalBytes: part.facts.originalBytes,
    sentBytes: part.facts.sentBytes,
    width: part.facts.width,
    height: part.facts.height,
    source: part.facts.source,
  };
}
