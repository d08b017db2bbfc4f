// Run conditions and sweep cells of `m3 run`: one batch may run every model at several max-round
// budgets K (`--max-step 2,4,6`, MCP-RADAR's accuracy-vs-K sweep) and under several conditions
// (`--condition none,tool-count-hint`). Each cell is its own run with its own prediction file;
// its label is the model label plus `.k<K>` when K is swept and `.<condition>` for a condition,
// so the evaluators see one results/<label>/ folder per cell, and the manifest records K
// (options.maxStep) and the condition for the report's sweep and condition tables.
//
// Conditions:
//   none             the task as written
//   tool-count-hint  the question ends with the number of tool calls the task's ground truth
//                    makes (MCP-RADAR's hint experiment); a task without ground truth keeps its
//                    question and is listed in a warning
import { ConfigError } from '../errors/index.js';
import type { TaskSet } from './task-set.js';

export const runConditions = ['none', 'tool-count-hint'] as const;
export type RunCondition = (typeof runConditions)[number];

export function parseConditions(values: readonly string[]): RunCondition[] {
  const names = values.flatMap((value) => value.split(',')).map((value) => value.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(runConditions as readonly string[]).includes(name));
  if (unknown.length > 0) throw new ConfigError(`--condition ${unknown.join(', ')}: expected ${runConditions.join(', ')}`);
  return [...new Set(names.length > 0 ? names : ['none'])] as RunCondition[];
}

/** `--max-step 6` or `--max-step 2,4,6`: distinct whole numbers >= 0, in the order given. */
export function parseMaxSteps(text: string): number[] {
  const values = text.split(',').map((part) => part.trim());
  if (values.some((value) => !/^\d+$/.test(value))) throw new ConfigError(`--max-step "${text}": expected a whole number, or a comma-separated list of them (e.g. 2,4,6)`);
  return [...new Set(values.map(Number))];
}

export function toolCountHint(calls: number): string {
  return `Hint: the reference solution of this task makes ${calls} tool call${calls === 1 ? '' : 's'}.`;
}

/** The task set under a condition, and the ids a condition could not apply to. */
export function applyCondition(taskSet: TaskSet, condition: RunCondition): { taskSet: TaskSet; skipped: string[] } {
  if (condition === 'none') return { taskSet, skipped: [] };
  const skipped: string[] = [];
  const tasks = taskSet.tasks.map((task) => {
    const gt = taskSet.groundTruth.get(task.id);
    if (!gt) {
      skipped.push(task.id);
      return task;
    }
    const calls = gt.steps.reduce((total, step) => total + step.calls.length, 0);
    return { ...task, question: `${task.question.trimEnd()}\n\n${toolCountHint(calls)}` };
  });
  return { taskSet: { ...taskSet, tasks }, skipped };
}

export interface RunCell {
  maxStep: number;
  condition: RunCondition;
  /** Appended to the model label (empty for a plain run). */
  suffix: string;
}

export function runCells(maxSteps: readonly number[], conditions: readonly RunCondition[]): RunCell[] {
  return maxSteps.flatMap((maxStep) =>
    conditions.map((condition) => ({ maxStep, condition, suffix: `${maxSteps.length > 1 ? `.k${maxStep}` : ''}${condition === 'none' ? '' : `.${condition}`}` })),
  );
}
