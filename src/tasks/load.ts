// Loading the reference task formats: ground truth (array, or object keyed by id),
// fuzzy task files, predictions, and a single combined file that carries both.
import type { z } from 'zod';
import { TaskFileError } from '../errors/index.js';
import { formatIssues } from '../config/zod-issues.js';
import { rememberExactArguments } from './exact-arguments.js';
import { loadJsonFile } from './load-json.js';
import {
  fuzzyTaskSchema,
  gtTaskSchema,
  predictionRecordSchema,
  predictionSchema,
  type FuzzyTask,
  type GtTask,
  type Prediction,
  type PredictionRecord,
} from './schemas.js';

/** Accepts an array, or an object mapping id → record (the id is taken from the key if absent). */
function toRecordList(raw: unknown, file: string, containerKeys: readonly string[] = []): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (raw && typeof raw === 'object') {
    for (const key of containerKeys) {
      const inner = (raw as Record<string, unknown>)[key];
      if (Array.isArray(inner)) return inner;
    }
    return Object.entries(raw as Record<string, unknown>).map(([key, value]) =>
      value && typeof value === 'object' && !Array.isArray(value) && !('id' in value) ? { id: key, ...value } : value,
    );
  }
  throw new TaskFileError(`${file}: expected a JSON array of tasks (or an object keyed by task id), got ${raw === null ? 'null' : typeof raw}`);
}

function parseList<T extends z.ZodType>(records: unknown[], schema: T, file: string): Array<z.output<T>> {
  return records.map((record, index) => {
    const parsed = schema.safeParse(record);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({ ...issue, path: [index, ...issue.path] }));
      throw new TaskFileError(formatIssues(file, issues));
    }
    return parsed.data;
  });
}

export interface Duplicate {
  id: string;
  count: number;
}

/** Duplicate ids keep the last occurrence (as the reference does) and are reported. */
export function indexById<T extends { id: string }>(records: readonly T[]): { byId: Map<string, T>; duplicates: Duplicate[]; dropped: number } {
  const byId = new Map<string, T>();
  const counts = new Map<string, number>();
  let dropped = 0;
  for (const record of records) {
    if (record.id === '') {
      dropped += 1;
      continue;
    }
    byId.set(record.id, record);
    counts.set(record.id, (counts.get(record.id) ?? 0) + 1);
  }
  const duplicates = [...counts].filter(([, count]) => count > 1).map(([id, count]) => ({ id, count }));
  return { byId, duplicates, dropped };
}

/**
 * How ids are matched: `exact` as written (the reference compares ids exactly, so " 0001" and
 * "0001" are two tasks), or `trimmed` (m3bench's default: surrounding whitespace removed).
 */
export type IdMatching = 'exact' | 'trimmed';

/** The records with ids as the policy says, and how many ids trimming changed. */
export function applyIdMatching<T extends { id: string }>(records: readonly T[], ids: IdMatching): { records: T[]; trimmed: number } {
  if (ids === 'exact') return { records: [...records], trimmed: 0 };
  let trimmed = 0;
  const result = records.map((record) => {
    const id = record.id.trim();
    if (id === record.id) return record;
    trimmed += 1;
    return { ...record, id };
  });
  return { records: result, trimmed };
}

export function loadGroundTruth(file: string, ids: IdMatching = 'trimmed'): GtTask[] {
  const records = parseList(toRecordList(loadJsonFile(file), file), gtTaskSchema, file);
  rememberExactArguments(records, file);
  return applyIdMatching(records, ids).records;
}

export function loadFuzzyTasks(file: string, ids: IdMatching = 'trimmed'): FuzzyTask[] {
  return applyIdMatching(parseList(toRecordList(loadJsonFile(file), file), fuzzyTaskSchema, file), ids).records;
}

const predictionContainers = ['data', 'items', 'results', 'predictions'];

export function loadPredictions(file: string, ids: IdMatching = 'trimmed'): Prediction[] {
  const records = parseList(toRecordList(loadJsonFile(file), file, predictionContainers), predictionSchema, file);
  rememberExactArguments(records, file, predictionContainers);
  return applyIdMatching(records, ids).records;
}

/** A prediction file our runner wrote (for --resume): every record in the runner's exact shape. */
export function loadPredictionRecords(file: string): PredictionRecord[] {
  return parseList(toRecordList(loadJsonFile(file), file), predictionRecordSchema, file);
}

/** One stored prediction record in the runner's shape; `where` names its origin in errors. */
export function parsePredictionRecord(value: unknown, where: string): PredictionRecord {
  const parsed = predictionRecordSchema.safeParse(value);
  if (!parsed.success) throw new TaskFileError(formatIssues(where, parsed.error.issues));
  return parsed.data;
}
