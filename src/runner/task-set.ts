// The tasks a run works through: the reference fuzzy task file joined with the ground truth
// by id, or one combined file carrying both. Duplicates keep the last record and are reported.
import { serverOf } from '../core/canonical-name.js';
import path from 'node:path';
import { TaskFileError } from '../errors/index.js';
import { indexById, loadFuzzyTasks, loadGroundTruth } from '../tasks/load.js';
import { loadJsonFile } from '../tasks/load-json.js';
import { withOutputFormat } from '../tasks/output-format.js';
import type { GtTask, Tier } from '../tasks/schemas.js';
import type { StateCheck } from '../tasks/state-check.js';
import { isUniverseTask, parseUniverseTask, type UniverseTask } from '../tasks/universe-task.js';

export interface RunnableTask {
  id: string;
  image: string | string[] | undefined;
  type: string | undefined;
  tier: Tier | undefined;
  /** Servers the task's ground truth needs that are not running: the task fails up front. */
  missingServers?: string[];
  /** The text the model is asked (fuzzy question, or the explicit prompt in non-fuzzy mode). */
  question: string;
  /** Lines a condition adds after the question in the first user turn (tool-count-hint). */
  hints?: string[];
  /** An MCP-Universe task (src/tasks/universe-task.ts): its servers narrow the offered tools, its evaluators go into the prediction. */
  universe?: UniverseTask;
  /** The GT record's `state_checks`: checked on the state the episode left (src/eval/state/episode-state.ts). */
  stateChecks?: StateCheck[];
}

export interface TaskSet {
  tasks: RunnableTask[];
  groundTruth: Map<string, GtTask>;
  /** The first task file (the manifest's `tasksFile`); `taskFiles` lists every one. */
  tasksFile: string;
  taskFiles: string[];
  gtFile: string | undefined;
  warnings: string[];
}

export interface TaskSetOptions {
  tasksFile: string;
  /** More task files run in the same set (M3-Bench task files or MCP-Universe task files, mixed). */
  extraTaskFiles?: readonly string[];
  gtFile?: string;
  /** Use the fuzzy `question` (default) or the explicit `prompt`. */
  fuzzy: boolean;
}

function isCombined(raw: unknown): boolean {
  const first = Array.isArray(raw) ? raw[0] : raw && typeof raw === 'object' ? Object.values(raw)[0] : undefined;
  return Boolean(first && typeof first === 'object' && 'steps' in first);
}

function toRunnable(task: UniverseTask): RunnableTask {
  return { id: task.id, image: undefined, type: task.category, tier: undefined, question: withOutputFormat(task.question, task.outputFormat), universe: task };
}

/** The tasks of one M3-Bench task file (joined with the ground truth by id). */
function m3Tasks(tasksFile: string, gtFile: string | undefined, groundTruth: Map<string, GtTask>, fuzzy: boolean, warnings: string[]): RunnableTask[] {
  const taskRecords = gtFile === tasksFile ? [...groundTruth.values()] : loadFuzzyTasks(tasksFile);
  const indexed = indexById(taskRecords);
  if (gtFile !== tasksFile && indexed.duplicates.length > 0) {
    warnings.push(`${tasksFile}: duplicate ids keep their last record: ${indexed.duplicates.map((d) => d.id).join(', ')}`);
  }
  if (indexed.dropped > 0) warnings.push(`${tasksFile}: ${indexed.dropped} record(s) without an id were skipped`);
  const tasks: RunnableTask[] = [];
  for (const record of indexed.byId.values()) {
    const fuzzyText = 'question' in record ? record.question : undefined;
    const question = fuzzy ? (fuzzyText ?? record.prompt ?? '') : (record.prompt ?? fuzzyText ?? '');
    if (!question.trim()) throw new TaskFileError(`${tasksFile}: task "${record.id}" has no ${fuzzy ? 'question' : 'prompt'} text`);
    const outputFormat = record.output_format ?? groundTruth.get(record.id)?.output_format;
    const stateChecks = groundTruth.get(record.id)?.state_checks;
    tasks.push({
      id: record.id,
      image: record.image,
      type: record.type,
      tier: record.tier,
      question: withOutputFormat(question, outputFormat),
      ...(stateChecks ? { stateChecks } : {}),
    });
  }
  return tasks;
}

/**
 * The run's tasks from one or more files, each an M3-Bench task file (fuzzy tasks, or a
 * combined file with ground truth) or an MCP-Universe task file (one task, no ground truth).
 * A task id may appear in only one file.
 */
export function loadTaskSet(options: TaskSetOptions): TaskSet {
  const warnings: string[] = [];
  const files = [options.tasksFile, ...(options.extraTaskFiles ?? [])].map((file) => path.resolve(file));
  const raws = files.map((file) => ({ file, raw: loadJsonFile(file) }));
  const m3Files = raws.filter(({ raw }) => !isUniverseTask(raw));
  const combined = m3Files.find(({ raw }) => isCombined(raw))?.file;
  const gtFile = options.gtFile ? path.resolve(options.gtFile) : combined;
  const groundTruth = gtFile ? indexById(loadGroundTruth(gtFile)) : undefined;
  if (groundTruth && groundTruth.duplicates.length > 0) {
    warnings.push(`${gtFile}: duplicate ids keep their last record: ${groundTruth.duplicates.map((d) => `${d.id} (x${d.count})`).join(', ')}`);
  }
  const gtById = groundTruth?.byId ?? new Map<string, GtTask>();
  const tasks: RunnableTask[] = [];
  const origin = new Map<string, string>();
  for (const { file, raw } of raws) {
    const fileTasks = isUniverseTask(raw) ? [toRunnable(parseUniverseTask(raw, file))] : m3Tasks(file, gtFile, gtById, options.fuzzy, warnings);
    for (const task of fileTasks) {
      const earlier = origin.get(task.id);
      if (earlier) throw new TaskFileError(`${file}: task id "${task.id}" is also in ${earlier} (an MCP-Universe task is named by its file name)`);
      origin.set(task.id, file);
      tasks.push(task);
    }
  }
  if (groundTruth) {
    const missing = tasks.filter((task) => !task.universe && !gtById.has(task.id)).map((task) => task.id);
    if (missing.length > 0)
      warnings.push(`${missing.length} task(s) have no ground truth in ${gtFile}: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', ...' : ''}`);
  }
  return { tasks, groundTruth: gtById, tasksFile: files[0] as string, taskFiles: files, gtFile, warnings };
}

/** Servers a task's ground truth calls, for the up-front availability check. */
export function serversNeeded(task: GtTask | undefined): string[] {
  if (!task) return [];
  const names = task.steps.flatMap((step) => step.calls.map((call) => serverOf(String(call.name ?? ''))));
  return [...new Set(names.filter(Boolean))];
}

/** `k/n` → the deterministic k-th of n slices (ids sorted as strings, round-robin). */
export function selectShard<T extends { id: string }>(tasks: readonly T[], shard: { index: number; count: number } | undefined): T[] {
  if (!shard) return [...tasks];
  const sorted = [...tasks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return sorted.filter((_, position) => position % shard.count === shard.index - 1);
}

export function parseShard(text: string | undefined): { index: number; count: number } | undefined {
  if (!text) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) throw new TaskFileError(`--shard "${text}" must be k/n with 1 <= k <= n, e.g. 2/4`);
  return { index, count };
}
