// What the store hands back: rows read from SQLite, validated and mapped to camelCase.
// A row that fails validation means the file was edited by hand or written by other code,
// so the error names the table and the column.
import { z } from 'zod';
import { formatIssues } from '../config/zod-issues.js';
import { endStatuses } from '../core/end-status.js';
import { StoreError } from '../errors/index.js';
import { predictionSchema } from '../tasks/schemas.js';
import { booleanColumn, jsonColumn, nullableJsonColumn } from './json-column.js';
import {
  attemptRecordSchema,
  episodeStatusSchema,
  failureKindSchema,
  conditionMarkSchema,
  fallbackTierSchema,
  imageDeliverySchema,
  imageRecordSchema,
  runStatusSchema,
} from './schemas.js';

const text = z.string();
const nullableText = z.string().nullable();
const integer = z.number().int();

export const runRowSchema = z
  .object({
    run_id: text,
    model_spec: text,
    model_label: text,
    started_at: text,
    finished_at: nullableText,
    status: runStatusSchema,
    config_hash: nullableText,
    git_commit: nullableText,
    package_versions: jsonColumn(z.record(z.string(), z.string())),
    switches: jsonColumn(z.record(z.string(), z.unknown())),
    tools_hash: nullableText,
    tool_surface: jsonColumn(z.record(z.string(), z.string())),
    manifest: nullableJsonColumn(z.unknown()),
    seed: integer.nullable(),
    task_file: nullableText,
    gt_file: nullableText,
    batch_id: nullableText,
    condition: text,
    trials: integer,
  })
  .transform((row) => ({
    runId: row.run_id,
    modelSpec: row.model_spec,
    modelLabel: row.model_label,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    status: row.status,
    configHash: row.config_hash,
    gitCommit: row.git_commit,
    packageVersions: row.package_versions,
    switches: row.switches,
    toolsHash: row.tools_hash,
    toolSurface: row.tool_surface,
    manifest: row.manifest,
    seed: row.seed,
    taskFile: row.task_file,
    gtFile: row.gt_file,
    batchId: row.batch_id,
    condition: row.condition,
    trials: row.trials,
  }));

export const episodeRowSchema = z
  .object({
    id: integer,
    run_id: text,
    task_id: text,
    model: text,
    trial: integer,
    attempt: integer,
    status: episodeStatusSchema,
    failure_kind: failureKindSchema.nullable(),
    error_code: nullableText,
    error_message: nullableText,
    started_at: text,
    finished_at: nullableText,
    rounds: integer,
    tool_call_count: integer,
    input_tokens: integer,
    output_tokens: integer,
    cached_tokens: integer,
    cost_usd: z.number().nullable(),
    saved_usd: z.number().nullable().default(null),
    prediction: nullableJsonColumn(predictionSchema),
    seed: integer.nullable(),
    prompt_hash: nullableText,
    // Absent from rows selected by name before migration 014; NULL when the episode had no final reply.
    end_status: z.enum(endStatuses).nullish(),
    end_detail: nullableText.optional(),
  })
  .transform((row) => ({
    id: row.id,
    runId: row.run_id,
    taskId: row.task_id,
    model: row.model,
    trial: row.trial,
    attempt: row.attempt,
    status: row.status,
    failureKind: row.failure_kind,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    rounds: row.rounds,
    toolCallCount: row.tool_call_count,
    usage: { inputTokens: row.input_tokens, outputTokens: row.output_tokens, cachedTokens: row.cached_tokens },
    costUsd: row.cost_usd,
    savedUsd: row.saved_usd,
    prediction: row.prediction,
    seed: row.seed,
    promptHash: row.prompt_hash,
    endStatus: row.end_status ?? null,
    endDetail: row.end_detail ?? null,
  }));

export const modelCallRowSchema = z
  .object({
    id: integer,
    episode_id: integer,
    round: integer,
    purpose: text,
    request: nullableJsonColumn(z.unknown()),
    request_delta: integer.default(0),
    response: nullableJsonColumn(z.unknown()),
    input_tokens: integer,
    output_tokens: integer,
    cached_tokens: integer,
    latency_ms: z.number(),
    attempts: jsonColumn(z.array(attemptRecordSchema)),
    error_class: nullableText,
    error_message: nullableText,
    images: jsonColumn(z.array(imageDeliverySchema)).default([]),
    image_count: integer,
    image_bytes: integer,
    image_tokens_est: integer.nullable(),
    agent: nullableText,
    // Migration 019; rows written before it are synchronous, with no recorded cost.
    billing: z.enum(['standard', 'batch', 'cache']).default('standard'),
    vendor_batch_id: nullableText.default(null),
    cost_usd: z.number().nullable().default(null),
    saved_usd: z.number().nullable().default(null),
    created_at: text,
  })
  .transform((row) => ({
    id: row.id,
    episodeId: row.episode_id,
    round: row.round,
    purpose: row.purpose,
    request: row.request,
    /** True only before the read rebuilt it (calls.ts): `request` then holds a delta. */
    requestDelta: row.request_delta === 1,
    response: row.response,
    usage: { inputTokens: row.input_tokens, outputTokens: row.output_tokens, cachedTokens: row.cached_tokens },
    latencyMs: row.latency_ms,
    attempts: row.attempts,
    errorClass: row.error_class,
    errorMessage: row.error_message,
    images: row.images,
    imagePayload: { count: row.image_count, bytes: row.image_bytes, estimatedTokens: row.image_tokens_est },
    agent: row.agent,
    billing: row.billing,
    vendorBatchId: row.vendor_batch_id,
    costUsd: row.cost_usd,
    savedUsd: row.saved_usd,
    createdAt: row.created_at,
  }));

export const toolCallRowSchema = z
  .object({
    id: integer,
    episode_id: integer,
    round: integer,
    call_index: integer,
    canonical_name: text,
    function_name: nullableText,
    arguments: nullableJsonColumn(z.unknown()),
    result_text: text,
    is_error: booleanColumn,
    error_code: nullableText,
    fallback_tier: fallbackTierSchema.nullable(),
    fallback_error_code: nullableText,
    condition_mark: nullableJsonColumn(conditionMarkSchema).optional(),
    duration_ms: z.number(),
    images: jsonColumn(z.array(imageRecordSchema)),
    agent: nullableText,
    created_at: text,
  })
  .transform((row) => ({
    id: row.id,
    episodeId: row.episode_id,
    round: row.round,
    callIndex: row.call_index,
    canonicalName: row.canonical_name,
    functionName: row.function_name,
    arguments: row.arguments,
    resultText: row.result_text,
    isError: row.is_error,
    errorCode: row.error_code,
    fallback: row.fallback_tier && row.fallback_error_code ? { tier: row.fallback_tier, originalErrorCode: row.fallback_error_code } : null,
    condition: row.condition_mark ?? null,
    durationMs: row.duration_ms,
    images: row.images,
    agent: row.agent,
    createdAt: row.created_at,
  }));

export type RunRow = z.output<typeof runRowSchema>;
export type EpisodeRow = z.output<typeof episodeRowSchema>;
export type ModelCallRow = z.output<typeof modelCallRowSchema>;
export type ToolCallRow = z.output<typeof toolCallRowSchema>;

/** Validates rows read from `table`; the error names the store file, table and column. */
export function parseRows<T extends z.ZodType>(schema: T, rows: unknown[], table: string, file: string): Array<z.output<T>> {
  return rows.map((row) => {
    const result = schema.safeParse(row);
    if (result.success) return result.data;
    const id = row && typeof row === 'object' ? ((row as Record<string, unknown>).id ?? (row as Record<string, unknown>).run_id) : undefined;
    throw new StoreError(`run store ${file} holds an unreadable ${table} row (id ${String(id)}):\n${formatIssues(table, result.error.issues)}`);
  });
}
