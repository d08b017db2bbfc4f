// Trajectories as the step evaluator sees them: steps in array order, calls in array
// order, tool name trimmed, arguments kept with their exact number text (lossless-json) and
// serialised once. Files are validated by the shared loaders in src/tasks; the same file is
// re-parsed losslessly and aligned record by record so `2.0` stays `2.0` in the embedded text.
import { readFileSync } from 'node:fs';
import { TaskFileError } from '../../errors/index.js';
import { applyIdMatching, type IdMatching, indexById, loadGroundTruth, loadPredictions, type Duplicate } from '../../tasks/load.js';
import type { GtTask, Prediction } from '../../tasks/schemas.js';
import { parseLosslessJson, serializeArguments } from './serialize.js';

export interface TrajectoryCall {
  tool: string;
  /** As parsed (numbers may be LosslessNumber); `undefined` when the call had no `arguments` key. */
  arguments: unknown;
  /** `serializeArguments(arguments)`: the text that is embedded. */
  text: string;
  stepIndex: number;
  callIndexInStep: number;
  /** The recorded tool result (predictions), used only by the success-aware recall. */
  result: string | undefined;
}

export interface Trajectory {
  id: string;
  /** GT task type (trimmed), `UNKNOWN` when absent or blank. */
  type: string;
  /** Number of steps, including steps without calls (they still count as rounds / W rows). */
  stepCount: number;
  /** Calls flattened step by step; indices into this list are the "flat" call indices. */
  calls: TrajectoryCall[];
}

type TaskRecord = GtTask | Prediction;

interface RawCall {
  name?: unknown;
  arguments?: unknown;
  result?: unknown;
}

function toolName(name: unknown): string {
  if (typeof name === 'string') return name.trim();
  if (typeof name === 'number' || typeof name === 'boolean') return String(name).trim();
  return '';
}

/** Builds a trajectory from a validated record; `losslessRecord` (same task) supplies exact arguments. */
export function toTrajectory(record: TaskRecord, losslessRecord?: unknown): Trajectory {
  const losslessSteps = stepsOf(losslessRecord);
  const calls: TrajectoryCall[] = [];
  record.steps.forEach((step, stepIndex) => {
    const losslessCalls = callsOf(losslessSteps?.[stepIndex]);
    step.calls.forEach((call, callIndexInStep) => {
      const raw = call as RawCall;
      const exact = losslessCalls?.[callIndexInStep];
      const hasArguments = Object.hasOwn(raw, 'arguments');
      const argumentsValue = !hasArguments ? undefined : exact && 'arguments' in exact ? exact.arguments : raw.arguments;
      calls.push({
        tool: toolName(raw.name),
        arguments: argumentsValue,
        text: serializeArguments(argumentsValue),
        stepIndex,
        callIndexInStep,
        result: typeof raw.result === 'string' ? raw.result : undefined,
      });
    });
  });
  const type = typeof record.type === 'string' && record.type.trim() !== '' ? record.type.trim() : 'UNKNOWN';
  return { id: record.id, type, stepCount: record.steps.length, calls };
}

function stepsOf(record: unknown): unknown[] | undefined {
  if (!record || typeof record !== 'object') return undefined;
  const steps = (record as { steps?: unknown }).steps;
  return Array.isArray(steps) ? steps : undefined;
}

function callsOf(step: unknown): RawCall[] | undefined {
  if (!step || typeof step !== 'object') return undefined;
  const calls = (step as { calls?: unknown }).calls;
  return Array.isArray(calls) ? (calls as RawCall[]) : undefined;
}

/** Mirrors the record-list rules of src/tasks/load.ts on the lossless tree. */
function toLosslessRecordList(raw: unknown, containerKeys: readonly string[]): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (raw && typeof raw === 'object') {
    for (const key of containerKeys) {
      const inner = (raw as Record<string, unknown>)[key];
      if (Array.isArray(inner)) return inner;
    }
    return Object.values(raw as Record<string, unknown>);
  }
  return [];
}

function idOf(record: unknown): string | undefined {
  if (!record || typeof record !== 'object') return undefined;
  const id = (record as { id?: unknown }).id;
  if (id === undefined || id === null) return undefined;
  return String(typeof id === 'object' && 'value' in id ? (id as { value: unknown }).value : id);
}

export interface LoadedTrajectories {
  file: string;
  /** One trajectory per record, file order (duplicates included). */
  records: Trajectory[];
  /** Last occurrence wins, as in the reference. */
  byId: Map<string, Trajectory>;
  duplicates: Duplicate[];
  /** Records dropped for an empty id. */
  dropped: number;
  /** Records whose exact number text could not be aligned (their arguments use parsed values). */
  unaligned: number;
  /** The validated records, for checks that need fields the trajectory drops. */
  raw: TaskRecord[];
  /** Ids whose surrounding whitespace was removed (0 when ids are matched exactly). */
  trimmedIds: number;
}

/**
 * Loads a GT or prediction file (array or id-keyed object) into trajectories; ids are trimmed
 * (the default) or kept exactly as written (`exact`, what the reference does).
 */
export function loadTrajectories(file: string, kind: 'gt' | 'pred', ids: IdMatching = 'trimmed'): LoadedTrajectories {
  const exactRecords: TaskRecord[] = kind === 'gt' ? loadGroundTruth(file, 'exact') : loadPredictions(file, 'exact');
  let lossless: unknown[] = [];
  try {
    const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
    lossless = toLosslessRecordList(parseLosslessJson(text), ['data', 'items', 'results', 'predictions']);
  } catch (error) {
    throw new TaskFileError(`${file}: could not re-read the file for exact number text: ${(error as Error).message}`, { cause: error });
  }
  const aligned = lossless.length === exactRecords.length;
  let unaligned = 0;
  const exactTrajectories = exactRecords.map((record, index) => {
    const exact = aligned ? lossless[index] : undefined;
    const idMatches = exact !== undefined && (idOf(exact) ?? record.id) === record.id;
    if (!idMatches) unaligned += 1;
    return toTrajectory(record, idMatches ? exact : undefined);
  });
  const { records: trajectories, trimmed: trimmedIds } = applyIdMatching(exactTrajectories, ids);
  const records = applyIdMatching(exactRecords, ids).records;
  const { byId, duplicates, dropped } = indexById(trajectories);
  return { file, records: trajectories, byId, duplicates, dropped, unaligned, raw: records, trimmedIds };
}

/** One warning per file whose ids trimming changed (the reference would match them exactly). */
export function describeTrimmedIds(...files: readonly LoadedTrajectories[]): string[] {
  return files
    .filter((loaded) => loaded.trimmedIds > 0)
    .map(
      (loaded) =>
        `${loaded.file}: ${loaded.trimmedIds} id(s) carried surrounding whitespace and were trimmed; the reference matches ids exactly (use --reference-compat to do the same)`,
    );
}
