// The step layer's exact match, named for what it is: every GT call matched and no predicted call
// left over (step recall = 1 and precision = 1). Views show it apart from task success, never as
// "pass" (task success is src/stats/task-success.ts, the rule `m3 eval task` applies).
const tolerance = 1e-9;

export function allGtCallsMatched(step: { recall: number; precision: number }): boolean {
  return step.recall >= 1 - tolerance && step.precision >= 1 - tolerance;
}
