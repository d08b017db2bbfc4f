// `m3 tasks verify`: replays every ground-truth call of a task suite against the live MCP
// servers, step by step (the calls of one step in parallel), and checks the task's facts on
// the real results. A task passes when its static checks pass (verify-static.ts), every call
// fits its tool's input schema, no call fails unless marked `expect_error`, every fact holds, and
// the task's `state_checks` (src/tasks/state-check.ts) hold on the databases it left.
// The host is injected, so tests and the CLI share one code path.
import { serverOf } from '../core/canonical-name.js';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { runStateChecks } from '../eval/state/run-state-checks.js';
import { stateChecksOf } from './state-check.js';
import { callCheckedTool, type CheckedCallOutcome } from '../mcp/checked-call.js';
import type { ToolCallOutcome, ToolHost } from '../mcp/types.js';
import { checkFact, describeFact, toCheckableResult, type CheckableResult } from './facts.js';
import type { GtTask, Tier } from './schemas.js';
import { checkSuiteStatic, expectsError, selectIds, type LoadedSuite, type ToolVocabulary } from './verify-static.js';
import { clip } from '../core/number-format.js';

export interface TaskVerdict {
  id: string;
  tier: Tier | undefined;
  type: string | undefined;
  calls: number;
  facts: number;
  factsHeld: number;
  status: 'passed' | 'failed';
  problems: string[];
  durationMs: number;
}

export interface VerifyReport {
  gtFile: string;
  tasksFile: string;
  suiteProblems: string[];
  tasks: TaskVerdict[];
  passed: boolean;
  durationMs: number;
}

export interface VerifyOptions {
  suite: LoadedSuite;
  host: ToolHost;
  /** Repository root: task images are resolved against it. */
  root: string;
  /**
   * Folder of the tasks' workspaces (`<dir>/<id>/`: every file a replayed tool writes, the
   * databases the state checks read). `m3 tasks verify` gives a scratch folder its servers may
   * write (src/cli/scratch-folder.ts); without one, `<root>/media/outputs` (git-ignored), the one
   * folder a host started without extra M3_ALLOWED_ROOTS lets its servers write.
   */
  workspaceRoot?: string;
  only?: readonly string[];
  /** Tasks replayed at the same time (default 2). */
  concurrency?: number;
  /** Servers that did not start, with the reason, so their tasks fail with that reason. */
  unavailable?: ReadonlyMap<string, string>;
  /** Every configured server name (fuzzy questions must not mention any); default the host's. */
  serverNames?: readonly string[];
  onTask?: (verdict: TaskVerdict) => void;
}

/** Every server a set of GT tasks calls, for starting only what is needed. */
export function serversUsed(tasks: readonly GtTask[]): string[] {
  const names = tasks.flatMap((task) => task.steps.flatMap((step) => step.calls.map((call) => serverOf(String(call.name ?? '')))));
  return [...new Set(names.filter(Boolean))].sort();
}

function vocabularyOf(host: ToolHost, serverNames: readonly string[]): ToolVocabulary {
  return { servers: [...new Set([...serverNames, ...host.tools.map((tool) => tool.server)])], tools: host.tools };
}

function toResult(outcome: ToolCallOutcome): CheckableResult {
  const texts = outcome.content.flatMap((item) =>
    item.type === 'text' ? [item.text] : item.type === 'resource' && item.text !== undefined ? [item.text] : [],
  );
  return toCheckableResult({ isError: outcome.isError, texts: texts.length > 0 ? texts : [outcome.text], structuredContent: outcome.structuredContent });
}

function oneLine(text: string, limit = 300): string {
  return clip(text, limit, { flatten: true, markerInLimit: true });
}

interface ReplayContext {
  host: ToolHost;
  workspaceRoot: string;
  unavailable: ReadonlyMap<string, string>;
}

/** Where a task's outputs go while it is verified: `<workspace root>/<id>`, emptied before the replay. */
function outputsDirOf(workspaceRoot: string, taskId: string): string {
  return path.join(workspaceRoot, taskId.replace(/[^A-Za-z0-9._-]/g, '_'));
}

/** A refused call (never sent) as the problem verify reports for it. */
function refusalProblem(label: string, refusal: NonNullable<CheckedCallOutcome['refusal']>): string {
  if (refusal.reason === 'unknown_tool') return `${label}: no such tool in the live catalog (see \`m3 servers list-tools\`)`;
  if (refusal.reason === 'schema_violation') return `${label}: arguments do not match the tool's input schema: ${refusal.detail}`;
  return `${label}: ${refusal.detail}`;
}

/** Runs one GT call; returns its result, or undefined (with a problem) when it was not sent. */
async function replayCall(
  task: GtTask,
  stepIndex: number,
  callIndex: number,
  context: ReplayContext,
  problems: string[],
): Promise<CheckableResult | undefined> {
  const call = task.steps[stepIndex]?.calls[callIndex];
  const name = String(call?.name ?? '');
  const label = `step ${stepIndex + 1} call ${callIndex} (${name})`;
  const server = serverOf(name);
  const down = context.unavailable.get(server);
  if (down !== undefined) {
    problems.push(`${label}: server "${server}" is not available: ${oneLine(down)}`);
    return undefined;
  }
  // GT files name tools canonically; a function-style name is not a GT name.
  if (!context.host.findByCanonical(name)) {
    problems.push(refusalProblem(label, { reason: 'unknown_tool', detail: name }));
    return undefined;
  }
  const outcome = await callCheckedTool(context.host, name, call?.arguments, {
    context: { taskId: task.id, workspace: outputsDirOf(context.workspaceRoot, task.id) },
  });
  if (outcome.refusal) {
    problems.push(refusalProblem(label, outcome.refusal));
    return undefined;
  }
  const result = toResult(outcome);
  if (result.isError && !(call && expectsError(call))) {
    problems.push(`${label} failed: ${oneLine(result.text)} (mark the call "expect_error": true only if the failure is deliberate)`);
  }
  return result;
}

async function replayTask(task: GtTask, context: ReplayContext): Promise<{ results: Array<Array<CheckableResult | undefined>>; problems: string[] }> {
  // Outputs of an earlier run would change what the calls see (e.g. a workbook that must not exist yet).
  if (/^[A-Za-z0-9_-]+$/.test(task.id)) await rm(outputsDirOf(context.workspaceRoot, task.id), { recursive: true, force: true });
  const problems: string[] = [];
  const results: Array<Array<CheckableResult | undefined>> = [];
  for (let stepIndex = 0; stepIndex < task.steps.length; stepIndex += 1) {
    const calls = task.steps[stepIndex]?.calls ?? [];
    const stepProblems = calls.map((): string[] => []);
    results.push(await Promise.all(calls.map((_, callIndex) => replayCall(task, stepIndex, callIndex, context, stepProblems[callIndex] ?? []))));
    problems.push(...stepProblems.flat());
  }
  return { results, problems };
}

function checkFacts(task: GtTask, results: ReadonlyArray<ReadonlyArray<CheckableResult | undefined>>): { held: number; problems: string[] } {
  const problems: string[] = [];
  let held = 0;
  (task.facts ?? []).forEach((fact, index) => {
    const label = `fact ${index + 1} (${describeFact(fact)})`;
    const result = results[fact.step - 1]?.[fact.call];
    const problem = result === undefined ? 'the call was not made (see the problem above)' : checkFact(fact, result);
    if (problem === undefined) held += 1;
    else problems.push(`${label}: ${problem}`);
  });
  return { held, problems };
}

/** Problems of the task's state checks on the final state of its workspace's databases. */
function checkState(task: GtTask, workspaceRoot: string): string[] {
  try {
    const checks = stateChecksOf(task, `task ${task.id}`);
    if (!checks) return [];
    const outcomes = runStateChecks({ workspace: outputsDirOf(workspaceRoot, task.id), taskId: task.id }, checks);
    return outcomes.flatMap((outcome, index) => (outcome.problem ? [`state check ${index + 1} (${outcome.check}): ${outcome.problem}`] : []));
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
}

async function verifyTask(id: string, gt: GtTask | undefined, staticProblems: string[], context: ReplayContext): Promise<TaskVerdict> {
  const began = performance.now();
  const base = { id, tier: gt?.tier, type: gt?.type, calls: gt?.steps.reduce((sum, step) => sum + step.calls.length, 0) ?? 0, facts: gt?.facts?.length ?? 0 };
  if (!gt) return { ...base, factsHeld: 0, status: 'failed', problems: staticProblems, durationMs: 0 };
  const replay = await replayTask(gt, context);
  const facts = checkFacts(gt, replay.results);
  const problems = [...staticProblems, ...replay.problems, ...facts.problems, ...checkState(gt, context.workspaceRoot)];
  return { ...base, factsHeld: facts.held, status: problems.length === 0 ? 'passed' : 'failed', problems, durationMs: Math.round(performance.now() - began) };
}

export async function verifySuite(options: VerifyOptions): Promise<VerifyReport> {
  const began = performance.now();
  const ids = selectIds(options.suite, options.only);
  const vocabulary = vocabularyOf(options.host, [...(options.serverNames ?? []), ...(options.unavailable?.keys() ?? [])]);
  const findings = checkSuiteStatic(options.suite, { root: options.root, vocabulary });
  const gtById = new Map(options.suite.gt.map((task) => [task.id, task]));
  const context: ReplayContext = {
    host: options.host,
    workspaceRoot: options.workspaceRoot ?? path.join(options.root, 'media', 'outputs'),
    unavailable: options.unavailable ?? new Map(),
  };
  const verdicts = new Map<string, TaskVerdict>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < ids.length) {
      const id = ids[next] ?? '';
      next += 1;
      const verdict = await verifyTask(id, gtById.get(id), findings.taskProblems.get(id) ?? [], context);
      verdicts.set(id, verdict);
      options.onTask?.(verdict);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 2, ids.length)) }, worker));
  const tasks = ids.map((id) => verdicts.get(id)).filter((verdict): verdict is TaskVerdict => verdict !== undefined);
  // With --only, id mismatches of unselected tasks are not this run's concern.
  const suiteProblems = options.only && options.only.length > 0 ? [] : findings.suiteProblems;
  return {
    gtFile: options.suite.gtFile,
    tasksFile: options.suite.tasksFile,
    suiteProblems,
    tasks,
    passed: suiteProblems.length === 0 && tasks.every((verdict) => verdict.status === 'passed'),
    durationMs: Math.round(performance.now() - began),
  };
}
