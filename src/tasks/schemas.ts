// The reference file formats (spec section 1): ground truth, fuzzy task files and predictions.
// Schemas are tolerant where the real data is defective (missing `arguments`, odd step numbers,
// stray fields) and strict where a wrong type would silently corrupt a metric.
import { z } from 'zod';
import { factSchema } from './facts.js';
import { taskCheckFields } from './task-checks.js';

/** Ids are compared as strings everywhere; numeric ids in hand-written files are accepted. */
const taskId = z.union([z.string(), z.number()]).transform((value) => String(value).trim());

export const callSchema = z
  .object({
    name: z.union([z.string(), z.null()]).optional(),
    arguments: z.unknown().optional(),
    result: z.unknown().optional(),
  })
  .loose();

export const stepSchema = z
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

export const dialogueEntrySchema = z
  .object({
    prepare: z.string().default(''),
    work: z.object({ tool_calls: z.array(z.unknown()).default([]) }).loose().default({ tool_calls: [] }),
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
  })
  .loose();

export type Call = z.output<typeof callSchema>;
export type Step = z.output<typeof stepSchema>;
export type GtTask = z.output<typeof gtTaskSchema>;
export type FuzzyTask = z.output<typeof fuzzyTaskSchema>;
export type Prediction = z.output<typeof predictionSchema>;
export type Tier = z.output<typeof tierSchema>;

/** A prediction call as written by our runner: canonical name plus the full result text. */
export interface PredictionCall {
  name: string;
  arguments: unknown;
  result: string;
  [extra: string]: unknown;
}

export interface PredictionRecord {
  id: string;
  image: string | string[] | undefined;
  type: string | undefined;
  question: string;
  steps: Array<{ step: number; calls: PredictionCall[] }>;
  num_step: number;
  max_num_concurrent: number;
  final_reply: string;
  dialogue: Array<{ prepare: string; work: { tool_calls: Array<{ name: string; arguments: unknown }> }; end: 'yes' | 'no' }>;
  [extra: string]: unknown;
}
