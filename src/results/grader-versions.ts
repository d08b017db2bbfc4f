// One version per evaluation layer, in one place every layer (and every reader) imports.
// Bump a layer's version whenever its grading semantics change (a formula, a threshold, a rule,
// a tie break): the outputs record the versions they were computed with, and `m3 trends` and
// `m3 gate` refuse to join or compare numbers across a version boundary unless asked.
// Changing the wording of a report, or the judge's prose, is not a grading change.

export const GRADER_VERSIONS = {
  /** src/eval/step: call alignment (similarity, thresholds, assignment) and the step metrics. */
  step: 'step-1',
  /** src/eval/call: the per-call classification rules. */
  call: 'call-1',
  /** src/eval/final: judges, their aggregation, and the deterministic proxies. */
  final: 'final-1',
  /** Task-level rule evaluators and precise answers (the task_success.json writers). */
  taskRules: 'task-rules-2',
  /** src/stats/task-success.ts: which rule decides that a task passed. */
  success: 'success-3',
  /** src/stats: pass@k, pass^k, avg@k, the bootstrap and the paired comparison. */
  stats: 'stats-1',
} as const;
