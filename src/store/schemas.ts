// What callers hand to the store. Inputs are validated here, at the store's boundary, so a bad
// status or a negative token count is reported by field instead of as a bare SQLite constraint.
import { z } from 'zod';
import { formatIssues } from '../config/zod-issues.js';
import { endStatuses } from '../core/end-status.js';
import type { ImageDelivery } from '../core/image-delivery.js';
import { FALLBACK_TIERS } from '../core/tool-result-contract.js';
import { providerErrorClasses, StoreError } from '../errors/index.js';
import type { AttemptRecord } from '../llm/retry.js';
import { predictionSchema } from '../tasks/schemas.js';

const count = z.number().int().nonnegative();
const optionalText = z.string().optional();

export const runStatusSchema = z.enum(['running', 'finished', 'failed', 'interrupted']);
export const episodeStatusSchema = z.enum(['ok', 'model_failure', 'infra_failure', 'timeout', 'running']);
const finalEpisodeStatusSchema = episodeStatusSchema.exclude(['running']);
export const failureKindSchema = z.enum(['model', 'infra']);
export const fallbackTierSchema = z.enum(FALLBACK_TIERS);

/** What a robustness condition did to a call (src/core/tool-result-contract.ts ConditionMark). */
export const conditionMarkSchema = z.strictObject({
  kind: z.enum(['distractor', 'injected_fault', 'injection']),
  detail: z.string(),
  canary: z.string().optional(),
  channel: z.enum(['text', 'image']).optional(),
  forbiddenTool: z.string().optional(),
});

const usageSchema = z.object({ inputTokens: count, outputTokens: count, cachedTokens: count });

export const runInputSchema = z.strictObject({
  runId: z.string().trim().min(1, 'expected a non-empty run id'),
  /** `provider:model` as given on the command line (comma-joined when a run has several). */
  modelSpec: z.string().min(1),
  /** Short label used in result file names and reports. */
  modelLabel: z.string().min(1),
  startedAt: z.date().optional(),
  configHash: optionalText,
  gitCommit: optionalText,
  packageVersions: z.record(z.string(), z.string()).default({}),
  switches: z.record(z.string(), z.unknown()).default({}),
  toolsHash: optionalText,
  /** Per-server sha256 of the tool list the run saw. */
  toolSurface: z.record(z.string(), z.string()).default({}),
  manifest: z.unknown().optional(),
  seed: z.number().int().optional(),
  taskFile: optionalText,
  gtFile: optionalText,
  /** The `m3 run` invocation this run belongs to (one run per model and condition). */
  batchId: optionalText,
  /** The named condition (src/runner/conditions.ts); `baseline` when unchanged. */
  condition: z.string().min(1).default('baseline'),
  /** Trials per task this run was asked for. */
  trials: z.number().int().min(1).default(1),
});

export const episodeStartSchema = z.strictObject({
  runId: z.string().min(1),
  taskId: z.string().min(1),
  model: z.string().min(1),
  trial: z.number().int().min(1).default(1),
  /** Omitted: the next free attempt number of (run, task, model, trial). */
  attempt: z.number().int().min(1).optional(),
  /** The sampling seed this trial sent, when one was sent. */
  seed: z.number().int().optional(),
  startedAt: z.date().optional(),
});

export const episodeFinishSchema = z.strictObject({
  status: finalEpisodeStatusSchema,
  /** Derived from the status except for `timeout`, where the caller says whose fault it was. */
  failureKind: failureKindSchema.optional(),
  errorCode: optionalText,
  errorMessage: optionalText,
  finishedAt: z.date().optional(),
  rounds: count.default(0),
  toolCallCount: count.default(0),
  usage: usageSchema.default({ inputTokens: 0, outputTokens: 0, cachedTokens: 0 }),
  costUsd: z.number().nonnegative().optional(),
  /** USD the cache and batch pricing saved against the list price (migration 019). */
  savedUsd: z.number().nonnegative().optional(),
  /** The task's prompt hash (src/runner/prompt-hash.ts), once its images were read. */
  promptHash: optionalText,
  /** How the episode's last reply ended (src/core/end-status.ts), when it had one. */
  endStatus: z.enum(endStatuses).optional(),
  /** What the vendor said about that end (a refusal's explanation, a finish reason). */
  endDetail: optionalText,
  /** The reference prediction record this episode produced. */
  prediction: z
    .record(z.string(), z.unknown())
    .superRefine((value, context) => {
      // Checked against the reader's schema, so a stored record can always be read back; the
      // record itself is stored as given (the reader's defaults are not written into it).
      const result = predictionSchema.safeParse(value);
      if (!result.success) for (const issue of result.error.issues) context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    })
    .optional(),
});

export const attemptRecordSchema = z.strictObject({
  attempt: z.number().int().min(1),
  startedAt: z.number(),
  latencyMs: z.number().nonnegative(),
  ok: z.boolean(),
  errorClass: z.enum(providerErrorClasses).optional(),
  message: z.string().optional(),
  waitMs: z.number().nonnegative().optional(),
});

/** One entry of the image-delivery audit; mirrors ImageDelivery in src/core/image-delivery.ts. */
export const imageDeliverySchema = z.strictObject({
  origin: z.enum(['task', 'tool']),
  callId: z.string().optional(),
  tool: z.string().optional(),
  source: z.string(),
  width: count,
  height: count,
  mediaType: z.string(),
  bytes: count,
  status: z.enum(['sent', 'placeholder', 'dropped']),
  reason: z.string().optional(),
});

export const modelCallInputSchema = z.strictObject({
  episodeId: z.number().int().positive(),
  round: count,
  /** Which request of the round this was: work, prepare, end, final, judge. */
  purpose: z.string().min(1),
  request: z.unknown().optional(),
  response: z.unknown().optional(),
  /** The request's images as sent: count, payload bytes, estimated image tokens (null: no formula for the vendor). */
  imagePayload: z.strictObject({ count, bytes: count, estimatedTokens: count.nullable() }).default({ count: 0, bytes: 0, estimatedTokens: null }),
  usage: usageSchema.default({ inputTokens: 0, outputTokens: 0, cachedTokens: 0 }),
  latencyMs: z.number().nonnegative().default(0),
  attempts: z.array(attemptRecordSchema).default([]),
  errorClass: optionalText,
  errorMessage: optionalText,
  /** The images the request carried or was meant to carry (src/core/image-delivery.ts). */
  images: z.array(imageDeliverySchema).default([]),
  /** The workflow agent that made the request (migration 013); absent for a single-agent run. */
  agent: optionalText,
  /** How the reply was paid for (migration 019): synchronous, a provider batch job's answer, or served by the model-response cache. */
  billing: z.enum(['standard', 'batch', 'cache']).default('standard'),
  /** The provider batch job that answered it (billing `batch`). */
  vendorBatchId: optionalText,
  /** USD the reply paid and what the cache or batch pricing saved (absent: the model has no price). */
  costUsd: z.number().nonnegative().optional(),
  savedUsd: z.number().nonnegative().optional(),
  createdAt: z.date().optional(),
});

/** Facts about one image a tool returned, as it was prepared for the model. */
export const imageRecordSchema = z.strictObject({
  mediaType: z.string().min(1),
  originalMediaType: z.string().optional(),
  originalBytes: count,
  sentBytes: count,
  width: count.nullable(),
  height: count.nullable(),
  source: z.string().optional(),
});

export const toolCallInputSchema = z.strictObject({
  episodeId: z.number().int().positive(),
  round: count,
  /** Position of the call within its round of parallel calls. */
  callIndex: count,
  canonicalName: z.string().min(1),
  functionName: optionalText,
  arguments: z.unknown(),
  resultText: z.string().default(''),
  isError: z.boolean().default(false),
  errorCode: optionalText,
  /** The fallback tier that served the call and the real call's failure code (src/fallback/). */
  fallback: z.strictObject({ tier: fallbackTierSchema, originalErrorCode: z.string().min(1) }).optional(),
  condition: conditionMarkSchema.optional(),
  durationMs: z.number().nonnegative().default(0),
  images: z.array(imageRecordSchema).default([]),
  /** The workflow agent that made the call (migration 013); absent for a single-agent run. */
  agent: optionalText,
  createdAt: z.date().optional(),
});

export type RunStatus = z.output<typeof runStatusSchema>;
export type EpisodeStatus = z.output<typeof episodeStatusSchema>;
export type FinalEpisodeStatus = z.output<typeof finalEpisodeStatusSchema>;
export type FailureKind = z.output<typeof failureKindSchema>;
export type RunInput = z.input<typeof runInputSchema>;
export type EpisodeStart = z.input<typeof episodeStartSchema>;
export type EpisodeFinish = z.input<typeof episodeFinishSchema>;
export type ModelCallInput = z.input<typeof modelCallInputSchema>;
export type ToolCallInput = z.input<typeof toolCallInputSchema>;
export type ImageRecord = z.output<typeof imageRecordSchema>;

// The store's schema must accept every audit entry the runner makes; this fails to compile if not.
const deliveryFits: ImageDelivery extends z.input<typeof imageDeliverySchema> ? true : never = true;
void deliveryFits;

/** Validates a caller's input; the error names the store function and the offending field. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new StoreError(`invalid input to the run store:\n${formatIssues(where, result.error.issues)}`);
}

// The retry policy's records must fit the schema that stores them; this fails to compile if not.
const attemptsFit: AttemptRecord extends z.input<typeof attemptRecordSchema> ? true : never = true;
void attemptsFit;
