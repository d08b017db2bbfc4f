// Task-level checks a task file may state (all optional, additive to the reference format):
//
//   "output_format": {"city": "<City>"}          what the final answer must look like; shown to
//                                                the model after the question (see output-format.ts)
//   "evaluators": [{"func": "json -> get(city)", "op": "=", "value": "San Francisco"}]
//                                                MCP-Universe-style rules; `target` picks what a
//                                                rule reads: the final answer (default) or one
//                                                predicted tool result ({"call": 2}, {"tool": "math/add"})
//   "answer": "10" | 26.1 | {"value": 26.1, "tolerance": 0.01, "aliases": ["26.10"]}
//                                                a RADAR precise answer: one ground-truth value
//   "decisive": [{"step": 2, "call": 0}]         the GT call(s) that decide a fuzzy-match task
//                                                (default: the calls of the last GT step)
//   "success": {"final": {"metric": "task_completion", "min": 0.8}}
//                                                a success rule on the final-answer evaluation
//                                                (`m3 eval final`): the task passes only when that
//                                                score reaches `min`; metrics: FINAL_THRESHOLD_METRICS
//   "state_checks": [...]                        (GT records) claims on the mock domains' final
//                                                database state, src/tasks/state-check.ts
//
// The rule language itself (functions, operators) is documented in src/eval/rules/functions.ts
// and src/eval/rules/operators.ts; here only the shapes are validated, so a rule with an unknown
// function is a failed check with a reason at evaluation time, never a task-file error.
import { z } from 'zod';

const callTargetSchema = z.object({ call: z.number().int() }).strict();
const toolTargetSchema = z.object({ tool: z.string().min(1), occurrence: z.number().int().optional() }).strict();

/** What a rule reads: `answer` (the final reply), a predicted call by flat index (negative counts from the end), or the n-th call of a tool. */
const ruleTargetSchema = z.union([z.literal('answer'), callTargetSchema, toolTargetSchema]);

export const evaluatorSchema = z
  .object({
    func: z.string().default(''),
    // MCP-Universe's EvaluatorConfig: op defaults to "" (no comparison: the rule passes when its func runs).
    op: z.string().default(''),
    value: z.unknown().optional(),
    op_args: z.unknown().optional(),
    target: ruleTargetSchema.default('answer'),
    description: z.string().optional(),
  })
  .loose();

const answerValue = z.union([z.string(), z.number()]);

const preciseAnswerSchema = z
  .union([
    answerValue,
    z
      .object({
        value: answerValue,
        aliases: z.array(answerValue).optional(),
        /** Absolute tolerance for numeric answers (default 1e-6). */
        tolerance: z.number().min(0).optional(),
        /** Tolerance relative to the ground truth instead (e.g. 0.01 = 1 %). */
        relative: z.number().min(0).optional(),
      })
      .strict(),
  ])
  .transform((answer) => (typeof answer === 'object' ? answer : { value: answer }));

const decisiveCallSchema = z.object({ step: z.number().int().min(1), call: z.number().int().min(0) }).strict();

/**
 * The final-answer scores a success rule may name: the judges' two metrics of taskcompletion.json
 * (`final` and `info_grounding.final`) and the deterministic proxies of final_proxy.json, all in [0, 1].
 */
const FINAL_THRESHOLD_METRICS = ['task_completion', 'information_grounding', 'token_f1', 'rouge_l', 'number_recall', 'entity_recall'] as const;

const finalThresholdSchema = z.object({ metric: z.enum(FINAL_THRESHOLD_METRICS), min: z.number().min(0).max(1) }).strict();

const successRuleSchema = z.object({ final: finalThresholdSchema }).strict();

const outputFormatSchema = z.union([z.string().min(1), z.record(z.string(), z.unknown()), z.array(z.unknown())]);

/** The optional fields every task-like record (GT or fuzzy task) may carry. */
export const taskCheckFields = {
  output_format: outputFormatSchema.optional(),
  evaluators: z.array(evaluatorSchema).optional(),
  answer: preciseAnswerSchema.optional(),
  decisive: z.array(decisiveCallSchema).min(1).optional(),
  success: successRuleSchema.optional(),
};

export type Evaluator = z.output<typeof evaluatorSchema>;
export type RuleTarget = z.output<typeof ruleTargetSchema>;
export type PreciseAnswer = z.output<typeof preciseAnswerSchema>;
export type DecisiveCall = z.output<typeof decisiveCallSchema>;
export type FinalThreshold = z.output<typeof finalThresholdSchema>;
export type FinalMetric = FinalThreshold['metric'];
export type OutputFormat = z.output<typeof outputFormatSchema>;
