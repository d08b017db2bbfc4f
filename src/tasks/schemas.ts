// The reference file formats (spec section 1): ground truth, fuzzy task files and predictions.
// Schemas are tolerant where the real data is defective (missing `arguments`, odd step numbers,
// stray fields) and strict where a wrong type would silently corrupt a metric.
import { z } from 'zod';
import { stateChecksSchema } from './state-check.js';
import { factSchema } from './facts.js';
import { evaluatorSchema, taskCheckFields } from './task-checks.js';

/**
 * Ids are compared as strings everywhere; numeric ids in hand-written files are accepted. They
 * are kept as written here: the loaders (load.ts) trim them unless asked to match them exactly,
 * as the reference does (`--reference-compat`).
 */
const taskId = z.union([z.string(), z.number()]).transform((value) => String(value));

const callSchema = z
  .object({
    name: z.union([z.string(), z.null()]).optional(),
    arguments: z.unknown().optional(),
    result: z.unknown().optional(),
  })
  .loose();

const stepSchema = z
  .object({
    step: z.number().optional(),
    calls: z.array(callSchema).default([]),
  })
  .loose();

/** Local-suite extras: the tier of a task and the facts its final reply must be backed by (see facts.ts). */
export const tierSchema = z.enum(['basic', 'chain', 'parallel', 'conditional', 'exception']);

export const gtTaskSchema = z
  .object({
    id: taskId,
    image: z.union([z.string(), z.array(z.string())]).optional(),
    type: z.string().optional(),
    question: z.string().default(''),
    prompt: z.string().optional(),
    steps: z.array(stepSchema).default([]),
    final_reply: z.string().default(''),
    tier: tierSchema.optional(),
    facts: z.array(factSchema).optional(),
    /** Claims on the mock domains' final database state (src/tasks/state-check.ts). */
    state_checks: stateChecksSchema.optional(),
    ...taskCheckFields,
  })
  .loose();

export const fuzzyTaskSchema = z
  .object({
    id: taskId,
    image: z.union([z.string(), z.array(z.string())]).optional(),
    type: z.string().optional(),
    prompt: z.string().optional(),
    question: z.string().optional(),
    tier: tierSchema.optional(),
    ...taskCheckFields,
  })
  .loose();

const dialogueEntrySchema = z
  .object({
    prepare: z.string().default(''),
    // Kept as written: the reference counts a round as illegal calling only when `work` is an
    // object whose `tool_calls` is an empty list (a missing `work` or `tool_calls` is not).
    work: z.object({ tool_calls: z.unknown().optional() }).loose().optional(),
    end: z.string().default('no'),
  })
  .loose();

export const predictionSchema = z
  .object({
    id: taskId,
    image: z.union([z.string(), z.array(z.string())]).optional(),
    type: z.string().optional(),
    question: z.string().default(''),
    steps: z.array(stepSchema).default([]),
    num_step: z.number().optional(),
    max_num_concurrent: z.number().optional(),
    final_reply: z.string().default(''),
    dialogue: z.array(dialogueEntrySchema).default([]),
    /** An MCP-Universe task's own evaluators, carried by its prediction (src/runner/run-task.ts). */
    evaluators: z.array(evaluatorSchema).optional(),
  })
  .loose();

/**
 * A prediction record as our runner writes it (and reads back on --resume): the reader's
 * shape with every field the runner always fills made exact. Extra fields (a call's
 * `error_code`, a failed episode's `status`/`error`) are kept.
 */
const predictionCallSchema = z.object({ name: z.string(), arguments: z.unknown(), result: z.string() }).loose();

export const predictionRecordSchema = z
  .object({
    id: z.string(),
    image: z.union([z.string(), z.array(z.string())]).optional(),
    type: z.string().optional(),
    question: z.string(),
    steps: z.array(z.object({ step: z.number(), calls: z.array(predictionCallSchema) }).loose()),
    num_step: z.number(),
    max_num_concurrent: z.number(),
    final_reply: z.string(),
    dialogue: z.array(
      z
        .object({
          prepare: z.string(),
          work: z.object({ tool_calls: z.array(z.object({ name: z.string(), arguments: z.unknown() }).loose()) }).loose(),
          end: z.enum(['yes', 'no']),
        })
        .loose(),
    ),
  })
  .loose();

export type Call = z.output<typeof callSchema>;
export type GtTask = z.output<typeof gtTaskSchema>;
export type FuzzyTask = z.output<typeof fuzzyTaskSchema>;
export type Prediction = z.output<typeof predictionSchema>;
export type PredictionRecord = z.output<typeof predictionRecordSchema>;
export type Tier = z.output<typeof tierSchema>;
