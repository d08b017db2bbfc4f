// The tasks a run works through: the reference fuzzy task file joined with the ground truth
// by id, or one combined file carrying both. Duplicates keep the last record and are reported.
import { serverOf } from '../core/canonical-name.js';
import path from 'node:path';
import { TaskFileError } from '../errors/index.js';
import { indexById, loadFuzzyTasks, loadGroundTruth } from '../tasks/load.js';
import { loadJsonFile } from '../tasks/load-json.js';
import { withOutputFormat } from '../tasks/output-format.js';
import type { GtTask, Tier } from '../tasks/schemas.js';

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
}

export interface TaskSet {
  tasks: RunnableTask[];
  groundTruth: Map<string, GtTask>;
  tasksFile: string;
  gtFile: string | undefined;
  warnings: string[];
}

export interface TaskSetOptions {
  tasksFile: string;
  gtFile?: string;
  /** Use the fuzzy `question` (default) or the explicit `prompt`. */
  fuzzy: boolean;
}

function isCombined(file: string): boolean {
  const raw = loadJsonFile(file);
  const first = Array.isArray(raw) ? raw[0] : raw && typeof raw === 'object' ? Object.values(raw)[0] : undefined;
  return Boolean(first && typeof first === 'object' && 'steps' in first);
}

export function loadTaskSet(options: TaskSetOptions): TaskSet {
  const warnings: string[] = [];
  const tasksFile = path.resolve(options.tasksFile);
  const gtFile = options.gtFile ? path.resolve(options.gtFile) : isCombined(tasksFile) ? tasksFile : undefined;
  const groundTruth = gtFile ? indexById(loadGroundTruth(gtFile)) : undefined;
  if (groundTruth && groundTruth.duplicates.length > 0) {
    warnings.push(`${gtFile}: duplicate ids keep their last record: ${groundTruth.duplicates.map((d) => `${d.id} (x${d.count})`).join(', ')}`);
  }
  const taskRecords = gtFile === tasksFile ? [...(groundTruth?.byId.values() ?? [])] : loadFuzzyTasks(tasksFile);
  const indexed = indexById(taskRecords);
  if (gtFile !== tasksFile && indexed.duplicates.length > 0) {
    warnings.push(`${tasksFile}: duplicate ids keep their last record: ${indexed.duplicates.map((d) => d.id).join(', ')}`);
  }
  if (indexed.dropped > 0) warnings.push(`${tasksFile}: ${indexed.dropped} record(s) without an id were skipped`);
  const tasks: RunnableTask[] = [];
  for (const record of indexed.byId.values()) {
    const fuzzyText = 'question' in record ? record.question : undefined;
    const question = options.fuzzy ? (fuzzyText ?? record.prompt ?? '') : (record.prompt ?? fuzzyText ?? '');
    if (!question.trim()) throw new TaskFileError(`${tasksFile}: task "${record.id}" has no ${options.fuzzy ? 'question' : 'prompt'} text`);
    const outputFormat = record.output_format ?? groundTruth?.byId.get(record.id)?.output_format;
    tasks.push({ id: record.id, image: record.image, type: record.type, tier: record.tier, question: withOutputFormat(question, outputFormat) });
  }
  if (groundTruth) {
    const missing = tasks.filter((task) => !groundTruth.byId.has(task.id)).map((task) => task.id);
    if (missing.length > 0)
      warnings.push(`${missing.length} task(s) have no ground truth in ${gtFile}: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', ...' : ''}`);
  }
  return { tasks, groundTruth: groundTruth?.byId ?? new Map(), tasksFile, gtFile, warnings };
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
