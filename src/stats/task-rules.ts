// The task-level checks a batch's tasks state (rule evaluators from src/eval/rules, precise
// answers, state checks, a success.final threshold), read once per batch from the GT and task
// files its manifest recorded, and run on each trial's prediction (state checks: the results
// the runner recorded in it; final threshold: the trial's taskcompletion.json / final_proxy.json),
// so a task with checks passes by its checks and the others by the step rule
// (src/stats/task-success.ts). The checks are the same code `m3 eval task` runs
// (src/eval/task/task-record.ts runTaskChecks), so the two layers cannot disagree.
import { existsSync } from 'node:fs';
import { RuleRegistry } from '../eval/rules/evaluate.js';
import { toTrajectory } from '../eval/step/trajectory.js';
import type { FinalScores } from '../eval/task/final-scores.js';
import { checksVerdict } from '../eval/task/outcome-checks.js';
import { runTaskChecks, statesChecks, taskSpecOf, type CheckSpec } from '../eval/task/task-record.js';
import type { BatchManifest } from '../runner/batch-manifest.js';
import { indexById, loadFuzzyTasks, loadGroundTruth } from '../tasks/load.js';
import type { FuzzyTask, GtTask, Prediction } from '../tasks/schemas.js';

export interface TaskRules {
  /** Task ids that state checks, with them; every other task is judged by the step rule. */
  specs: ReadonlyMap<string, CheckSpec>;
  /** Why no task file could be read (the rules of its tasks are then unknown, and said so). */
  unreadable: string[];
}

export interface ChecksOutcome {
  /** The kinds of check the task states, `+`-joined: `rules`, `answer`, `state`, `final` (e.g. `rules+state`). */
  rule: string;
  /** Null: not evaluated (a check's input is missing and none failed); `notEvaluated` says why. */
  passed: boolean | null;
  /** Checks passed / stated. */
  passedCount: number;
  total: number;
  notEvaluated: string[];
}

function readRecords<T extends { id: string }>(file: string | null, load: (file: string) => T[], unreadable: string[]): Map<string, T> {
  if (!file) return new Map();
  if (!existsSync(file)) {
    unreadable.push(`${file} is missing`);
    return new Map();
  }
  return indexById(load(file)).byId;
}

/** The checks of every task in the batch's GT (and task file, for fields the GT lacks). */
export function loadTaskRules(manifest: Pick<BatchManifest, 'gtFile' | 'tasksFile'>): TaskRules {
  const unreadable: string[] = [];
  const gt = readRecords<GtTask>(manifest.gtFile, loadGroundTruth, unreadable);
  const tasks = manifest.tasksFile === manifest.gtFile ? new Map<string, FuzzyTask>() : readRecords<FuzzyTask>(manifest.tasksFile, loadFuzzyTasks, unreadable);
  const specs = new Map<string, CheckSpec>();
  for (const id of new Set([...gt.keys(), ...tasks.keys()])) {
    const spec = taskSpecOf(gt.get(id), tasks.get(id));
    if (statesChecks(spec)) specs.set(id, { evaluators: spec.evaluators, answer: spec.answer, stateChecks: spec.stateChecks, final: spec.final });
  }
  return { specs, unreadable };
}

const registry = new RuleRegistry();

/** Whether any task of the batch states a success.final threshold (the trials then read final scores). */
export function needsFinalScores(rules: TaskRules): boolean {
  return [...rules.specs.values()].some((spec) => spec.final !== undefined);
}

function ruleOf(spec: CheckSpec): string {
  const kinds = [
    spec.evaluators.length > 0 ? 'rules' : '',
    spec.answer ? 'answer' : '',
    (spec.stateChecks?.length ?? 0) > 0 ? 'state' : '',
    spec.final ? 'final' : '',
  ];
  return kinds.filter(Boolean).join('+');
}

/** The task's checks on one prediction (undefined: the task states none). */
export function checkPrediction(rules: TaskRules, prediction: Prediction, finalScores?: FinalScores): ChecksOutcome | undefined {
  const spec = rules.specs.get(prediction.id);
  if (!spec) return undefined;
  const calls = toTrajectory(prediction).calls.map((call) => ({ tool: call.tool, result: call.result }));
  const { checks } = runTaskChecks(spec, { answer: prediction.final_reply, calls }, registry, { id: prediction.id, prediction, finalScores });
  return {
    rule: ruleOf(spec),
    passed: checksVerdict(checks),
    passedCount: checks.filter((check) => check.passed).length,
    total: checks.length,
    notEvaluated: checks.filter((check) => check.not_evaluated).map((check) => `${check.evaluator}: ${check.reason}`),
  };
}
