// The checks of `m3 tasks verify` that need no server: the GT and fuzzy task files agree (same
// ids, tiers, types and images; GT question = task prompt), images exist, every fact points at
// a real call and its reply text is in final_reply, and no fuzzy question names a tool or server.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { TaskFileError } from '../errors/index.js';
import { describeFact, textContains } from './facts.js';
import { indexById, loadFuzzyTasks, loadGroundTruth } from './load.js';
import type { Call, FuzzyTask, GtTask } from './schemas.js';

export interface LoadedSuite {
  gtFile: string;
  tasksFile: string;
  gt: GtTask[];
  tasks: FuzzyTask[];
}

export function loadSuite(gtFile: string, tasksFile: string): LoadedSuite {
  return { gtFile, tasksFile, gt: loadGroundTruth(gtFile), tasks: loadFuzzyTasks(tasksFile) };
}

/** What the fuzzy questions must not mention: the live catalog's servers and tools. */
export interface ToolVocabulary {
  servers: readonly string[];
  tools: ReadonlyArray<{ server: string; tool: string }>;
}

const expectErrorSchema = z.boolean().optional();

/** A GT call marked `"expect_error": true` is allowed to fail (exception-tier tasks). */
export function expectsError(call: Call): boolean {
  const parsed = expectErrorSchema.safeParse((call as Record<string, unknown>).expect_error);
  return parsed.success && parsed.data === true;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function mentions(text: string, word: string): boolean {
  return new RegExp(`(?<![\\w-])${escapeRegExp(word)}(?![\\w-])`, 'i').test(text);
}

/**
 * Names in `text` that give the tools away: canonical `server/tool` names, server names, the
 * word "MCP", and identifier-like tool names (`perform_ocr`, `detect-all-objects`,
 * `radiansToDegrees`). Plain-word tool names (crop, sum, blur) are ordinary English and allowed.
 * @internal Exported for its tests.
 */
export function findToolMentions(text: string, vocabulary: ToolVocabulary): string[] {
  const found = new Set<string>();
  for (const { server, tool } of vocabulary.tools) {
    if (text.toLowerCase().includes(`${server}/${tool}`.toLowerCase())) found.add(`${server}/${tool}`);
    if (/[_-]|[a-z][A-Z]/.test(tool) && mentions(text, tool)) found.add(tool);
  }
  for (const server of vocabulary.servers) if (mentions(text, server)) found.add(server);
  if (mentions(text, 'mcp')) found.add('MCP');
  return [...found];
}

function imagesOf(image: string | string[] | undefined): string[] {
  return image === undefined ? [] : (Array.isArray(image) ? image : [image]).filter((entry) => entry.trim() !== '');
}

function sameImages(left: string | string[] | undefined, right: string | string[] | undefined): boolean {
  return JSON.stringify(imagesOf(left)) === JSON.stringify(imagesOf(right));
}

/** Missing images, with the command that brings them back. */
function checkImages(image: string | string[] | undefined, root: string): string[] {
  const problems: string[] = [];
  for (const entry of imagesOf(image)) {
    if (existsSync(path.resolve(root, entry))) continue;
    const hint = entry.replace(/^\.\//, '').startsWith('media/assets/')
      ? 'run `m3 assets pull` (with M3_ASSET_MIRROR set when offline) to fetch the shared photos'
      : entry.replace(/^\.\//, '').startsWith('media/local/')
        ? 'regenerate the local media with `npx tsx tools/generate-local-media.ts`'
        : 'check the path (images are resolved against the repository root)';
    problems.push(`image ${entry} not found: ${hint}`);
  }
  return problems;
}

function checkFacts(task: GtTask): string[] {
  const facts = task.facts ?? [];
  if (facts.length === 0) return ['has no facts: add at least one fact backing final_reply'];
  const problems: string[] = [];
  facts.forEach((fact, index) => {
    const label = `fact ${index + 1} (${describeFact(fact)})`;
    const call = task.steps[fact.step - 1]?.calls[fact.call];
    if (!call) {
      problems.push(`${label}: there is no call ${fact.call} in step ${fact.step} (the task has ${task.steps.length} step(s))`);
      return;
    }
    if (fact.expectError && !expectsError(call)) problems.push(`${label}: expects the call to fail, but the call is not marked "expect_error": true`);
    if (fact.reply !== undefined && !textContains(task.final_reply, fact.reply)) {
      problems.push(`${label}: final_reply does not contain its reply text ${JSON.stringify(fact.reply)}`);
    }
  });
  return problems;
}

function checkCalls(task: GtTask): string[] {
  const problems: string[] = [];
  if (task.steps.length === 0) problems.push('has no steps');
  task.steps.forEach((step, stepIndex) => {
    if (step.calls.length === 0) problems.push(`step ${stepIndex + 1} has no calls`);
    step.calls.forEach((call, callIndex) => {
      if (typeof call.name !== 'string' || !/^[^/\s]+\/\S+$/.test(call.name)) {
        problems.push(`step ${stepIndex + 1} call ${callIndex}: name ${JSON.stringify(call.name)} is not a canonical "server/tool" name`);
      }
      const args = call.arguments;
      if (typeof args !== 'object' || args === null || Array.isArray(args))
        problems.push(`step ${stepIndex + 1} call ${callIndex}: arguments must be a JSON object`);
    });
  });
  return problems;
}

function checkPair(task: GtTask, fuzzy: FuzzyTask, vocabulary: ToolVocabulary): string[] {
  const problems: string[] = [];
  if (!task.tier) problems.push('GT record has no "tier" (basic, chain, parallel, conditional or exception)');
  if (task.tier !== fuzzy.tier) problems.push(`tier differs: GT ${JSON.stringify(task.tier)}, tasks file ${JSON.stringify(fuzzy.tier)}`);
  if (task.type !== fuzzy.type) problems.push(`type differs: GT ${JSON.stringify(task.type)}, tasks file ${JSON.stringify(fuzzy.type)}`);
  if (!sameImages(task.image, fuzzy.image)) problems.push(`image differs: GT ${JSON.stringify(task.image)}, tasks file ${JSON.stringify(fuzzy.image)}`);
  if (!fuzzy.prompt?.trim()) problems.push('tasks file record has no "prompt" (the explicit instruction)');
  else if (fuzzy.prompt !== task.question) problems.push('GT "question" must equal the tasks file "prompt" (both are the explicit instruction)');
  const question = fuzzy.question?.trim() ?? '';
  if (question === '') problems.push('tasks file record has no fuzzy "question"');
  const named = findToolMentions(question, vocabulary);
  if (named.length > 0)
    problems.push(`fuzzy question names ${named.map((name) => JSON.stringify(name)).join(', ')}: rephrase it as a user would, without tool or server names`);
  return problems;
}

export interface StaticFindings {
  /** Problems of the files as a whole (ids present in one file only, duplicates). */
  suiteProblems: string[];
  /** Problems per task id (GT ids, plus ids found only in the tasks file). */
  taskProblems: Map<string, string[]>;
}

export function checkSuiteStatic(suite: LoadedSuite, options: { root: string; vocabulary: ToolVocabulary }): StaticFindings {
  const gt = indexById(suite.gt);
  const fuzzy = indexById(suite.tasks);
  const suiteProblems: string[] = [];
  for (const [file, index] of [
    [suite.gtFile, gt],
    [suite.tasksFile, fuzzy],
  ] as const) {
    if (index.duplicates.length > 0) suiteProblems.push(`${file}: duplicate ids ${index.duplicates.map((entry) => entry.id).join(', ')}`);
    if (index.dropped > 0) suiteProblems.push(`${file}: ${index.dropped} record(s) without an id`);
  }
  const taskProblems = new Map<string, string[]>();
  for (const [id, task] of gt.byId) {
    const pair = fuzzy.byId.get(id);
    const problems = pair
      ? checkPair(task, pair, options.vocabulary)
      : [`is in ${suite.gtFile} but not in ${suite.tasksFile}: the two files must list the same ids`];
    problems.push(...checkImages(task.image, options.root), ...checkCalls(task), ...checkFacts(task));
    taskProblems.set(id, problems);
  }
  const onlyInTasks = [...fuzzy.byId.keys()].filter((id) => !gt.byId.has(id));
  for (const id of onlyInTasks) taskProblems.set(id, [`is in ${suite.tasksFile} but not in ${suite.gtFile}: the two files must list the same ids`]);
  if (onlyInTasks.length > 0) suiteProblems.push(`ids only in ${suite.tasksFile}: ${onlyInTasks.join(', ')}`);
  const onlyInGt = [...gt.byId.keys()].filter((id) => !fuzzy.byId.has(id));
  if (onlyInGt.length > 0) suiteProblems.push(`ids only in ${suite.gtFile}: ${onlyInGt.join(', ')}`);
  return { suiteProblems, taskProblems };
}

/** `--only L0001,L0002`: the ids must exist in the suite. */
export function selectIds(suite: LoadedSuite, only: readonly string[] | undefined): string[] {
  const all = [...new Set([...suite.gt.map((task) => task.id), ...suite.tasks.map((task) => task.id)])];
  if (!only || only.length === 0) return all;
  const unknown = only.filter((id) => !all.includes(id));
  if (unknown.length > 0) throw new TaskFileError(`--only: unknown task id(s) ${unknown.join(', ')} (not in ${suite.gtFile} or ${suite.tasksFile})`);
  return all.filter((id) => only.includes(id));
}
