// The facts of the original task files that /work/shared/data/m3bench/STATS.md states (record
// counts, images, how the fuzzy file relates to the ground truth, the known oddities), computed
// from the files themselves so `m3 dataset verify` shows a researcher what they actually have.
// Like the reference evaluators, a duplicated id keeps its last entry; "all entries" numbers
// count every entry.
import { serverOf } from '../core/canonical-name.js';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { FuzzyTask, GtTask } from '../tasks/schemas.js';
import { sum } from '../core/number-format.js';

interface GtCounts {
  entries: number;
  uniqueIds: number;
  duplicates: Array<{ id: string; count: number; identical: boolean }>;
  types: number;
  typesAllEntries: number;
  steps: number;
  stepsAllEntries: number;
  parallelSteps: number;
  parallelStepsAllEntries: number;
  tasksWithParallelStep: number;
  calls: number;
  callsAllEntries: number;
  servers: number;
  tools: number;
}

interface OverlapCounts {
  fuzzyTasks: number;
  fuzzyUniqueIds: number;
  fuzzyTypes: number;
  fuzzyWithGt: number;
  /** GT calls and servers of the ids in both files: what the reference scores. */
  scoredCalls: number;
  scoredServers: number;
  fuzzyWithoutGt: string[];
  gtWithoutFuzzy: number;
  typeDiffers: number;
  imageDiffers: string[];
}

interface ImageFacts {
  tasksWithImage: number;
  png: number;
  plainPaths: number;
  dotPaths: number;
  otherPaths: Array<{ id: string; image: string }>;
  distinctNames: number;
  nameDiffersFromId: Array<{ id: string; image: string }>;
}

interface OddityCounts {
  /** Entries carrying the prediction-file fields `num_step` / `max_num_concurrent`. */
  extraFields: string[];
  callsWithoutArguments: string[];
  recordedResults: { calls: number; tasks: Array<{ id: string; calls: number }> };
  /** Ids whose `step` numbers are not 1, 2, 3, ... */
  oddStepNumbers: string[];
  repeatedCalls: { cases: number; tasks: number };
}

export interface DatasetCounts {
  gt: GtCounts;
  overlap: OverlapCounts;
  images: ImageFacts;
  oddities: OddityCounts;
}

const plainPattern = /^images\/\d{8}\.png$/;
const dotPattern = /^\.\/images\/\d{8}\.png$/;

function lastWins(records: readonly GtTask[]): GtTask[] {
  return [...new Map(records.map((record) => [record.id, record])).values()];
}

function callsOf(task: GtTask) {
  return task.steps.flatMap((step) => step.calls);
}

const parallelStepsOf = (task: GtTask) => task.steps.filter((step) => step.calls.length > 1).length;

/** Image paths of a record (the field is a string, or a list in hand-written files). */
export function imagesOf(record: { image?: string | string[] | undefined }): string[] {
  if (record.image === undefined) return [];
  return (Array.isArray(record.image) ? record.image : [record.image]).filter((value) => value.trim() !== '');
}

function countGt(all: readonly GtTask[], unique: readonly GtTask[]): GtCounts {
  const occurrences = new Map<string, GtTask[]>();
  for (const record of all) occurrences.set(record.id, [...(occurrences.get(record.id) ?? []), record]);
  const duplicates = [...occurrences]
    .filter(([, copies]) => copies.length > 1)
    .map(([id, copies]) => ({ id, count: copies.length, identical: copies.every((copy) => isDeepStrictEqual(copy, copies[0])) }));
  const names = unique.flatMap((task) => callsOf(task).map((call) => String(call.name ?? '')));
  return {
    entries: all.length,
    uniqueIds: unique.length,
    duplicates,
    types: new Set(unique.map((task) => task.type)).size,
    typesAllEntries: new Set(all.map((task) => task.type)).size,
    steps: sum(unique, (task) => task.steps.length),
    stepsAllEntries: sum(all, (task) => task.steps.length),
    parallelSteps: sum(unique, parallelStepsOf),
    parallelStepsAllEntries: sum(all, parallelStepsOf),
    tasksWithParallelStep: unique.filter((task) => parallelStepsOf(task) > 0).length,
    calls: sum(unique, (task) => callsOf(task).length),
    callsAllEntries: sum(all, (task) => callsOf(task).length),
    servers: new Set(names.map(serverOf)).size,
    tools: new Set(names).size,
  };
}

function countOverlap(unique: readonly GtTask[], fuzzy: readonly FuzzyTask[]): OverlapCounts {
  const gtById = new Map(unique.map((task) => [task.id, task]));
  const fuzzyById = new Map(fuzzy.map((task) => [task.id, task]));
  const shared = [...fuzzyById.keys()].filter((id) => gtById.has(id));
  const scored = shared.map((id) => gtById.get(id) as GtTask);
  return {
    fuzzyTasks: fuzzy.length,
    fuzzyUniqueIds: fuzzyById.size,
    fuzzyTypes: new Set(fuzzy.map((task) => task.type)).size,
    fuzzyWithGt: shared.length,
    scoredCalls: sum(scored, (task) => callsOf(task).length),
    scoredServers: new Set(scored.flatMap((task) => callsOf(task).map((call) => serverOf(String(call.name ?? ''))))).size,
    fuzzyWithoutGt: [...fuzzyById.keys()].filter((id) => !gtById.has(id)),
    gtWithoutFuzzy: unique.filter((task) => !fuzzyById.has(task.id)).length,
    typeDiffers: shared.filter((id) => fuzzyById.get(id)?.type !== gtById.get(id)?.type).length,
    imageDiffers: shared.filter((id) => !isDeepStrictEqual(fuzzyById.get(id)?.image, gtById.get(id)?.image)),
  };
}

function imageFacts(unique: readonly GtTask[]): ImageFacts {
  const pairs = unique.flatMap((task) => imagesOf(task).map((image) => ({ id: task.id, image })));
  const stem = (image: string) => path.posix.basename(image, path.posix.extname(image));
  return {
    tasksWithImage: unique.filter((task) => imagesOf(task).length > 0).length,
    png: pairs.filter((pair) => pair.image.toLowerCase().endsWith('.png')).length,
    plainPaths: pairs.filter((pair) => plainPattern.test(pair.image)).length,
    dotPaths: pairs.filter((pair) => dotPattern.test(pair.image)).length,
    otherPaths: pairs.filter((pair) => !plainPattern.test(pair.image) && !dotPattern.test(pair.image)),
    distinctNames: new Set(pairs.map((pair) => path.posix.basename(pair.image))).size,
    nameDiffersFromId: pairs.filter((pair) => stem(pair.image) !== pair.id),
  };
}

function repeatedCalls(unique: readonly GtTask[]): { cases: number; tasks: number } {
  let cases = 0;
  let tasks = 0;
  for (const task of unique) {
    const seen = new Map<string, number>();
    for (const call of callsOf(task)) {
      const key = JSON.stringify([call.name, call.arguments]);
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    const extra = [...seen.values()].reduce((total, count) => total + count - 1, 0);
    cases += extra;
    if (extra > 0) tasks += 1;
  }
  return { cases, tasks };
}

function countOddities(all: readonly GtTask[], unique: readonly GtTask[]): OddityCounts {
  const withResults = unique
    .map((task) => ({ id: task.id, calls: callsOf(task).filter((call) => call.result !== undefined).length }))
    .filter((entry) => entry.calls > 0);
  return {
    extraFields: [...new Set(all.filter((task) => 'num_step' in task || 'max_num_concurrent' in task).map((task) => task.id))],
    callsWithoutArguments: all.flatMap((task) =>
      callsOf(task)
        .filter((call) => call.arguments === undefined)
        .map(() => task.id),
    ),
    recordedResults: { calls: withResults.reduce((total, entry) => total + entry.calls, 0), tasks: withResults },
    oddStepNumbers: unique.filter((task) => task.steps.some((step, index) => step.step !== index + 1)).map((task) => task.id),
    repeatedCalls: repeatedCalls(unique),
  };
}

export function countDataset(gtRecords: readonly GtTask[], fuzzyRecords: readonly FuzzyTask[]): DatasetCounts {
  const unique = lastWins(gtRecords);
  return {
    gt: countGt(gtRecords, unique),
    overlap: countOverlap(unique, fuzzyRecords),
    images: imageFacts(unique),
    oddities: countOddities(gtRecords, unique),
  };
}
