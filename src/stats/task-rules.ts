// The task-level checks a batch's tasks state (rule evaluators from src/eval/rules and precise
// answers), read once per batch from the GT and task files its manifest recorded, and run on each
// trial's prediction, so a task with checks passes by its checks and the others by the step rule
// (src/stats/task-success.ts). The checks are the same code `m3 eval task` runs
// (src/eval/task/task-record.ts runTaskChecks), so the two layers cannot disagree.
import { existsSync } from 'node:fs';
import { RuleRegistry } from '../eval/rules/evaluate.js';
import { toTrajectory } from '../eval/step/trajectory.js';
import { runTaskChecks, taskSpecOf, type TaskSpec } from '../eval/task/task-record.js';
import type { BatchManifest } from '../runner/batch-manifest.js';
import { indexById, loadFuzzyTasks, loadGroundTruth } from '../tasks/load.js';
import type { FuzzyTask, GtTask, Prediction } from '../tasks/schemas.js';

type CheckSpec = Pick<TaskSpec, 'evaluators' | 'answer'>;

export interface TaskRules {
  /** Task ids that state checks, with them; every other task is judged by the step rule. */
  specs: ReadonlyMap<string, CheckSpec>;
  /** Why no task file could be read (the rules of its tasks are then unknown, and said so). */
  unreadable: string[];
}

export interface ChecksOutcome {
  /** `rules`: the task states rule evaluators (maybe a precise answer too); `answer`: only a precise answer. */
  rule: 'rules' | 'answer';
  passed: boolean;
  /** Checks passed / stated. */
  passedCount: number;
  total: number;
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
    if (spec.evaluators.length > 0 || spec.answer) specs.set(id, { evaluators: spec.evaluators, answer: spec.answer });
  }
  return { specs, unreadable };
}

const registry = new RuleRegistry();

/** The task's checks on one prediction (undefined: the task states none). */
export function checkPrediction(rules: TaskRules, prediction: Prediction): ChecksOutcome | undefined {
  const spec = rules.specs.get(prediction.id);
  if (!spec) return undefined;
  const calls = toTrajectory(prediction).calls.map((call) => ({ tool: call.tool, result: call.result }));
  const { checks } = runTaskChecks(spec, { answer: prediction.final_reply, calls }, registry);
  const passedCount = checks.filter((check) => check.passed).length;
  return {
    rule: spec.evaluators.length > 0 ? 'rules' : 'answer',
    passed: checks.length > 0 && passedCount === checks.length,
    passedCount,
    total: checks.length,
  };
}
