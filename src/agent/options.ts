// Everything that shapes one episode, gathered from CLI flags and M3_* switches in one place.
import type { Switches } from '../config/switches.js';
import { ConfigError } from '../errors/index.js';
import { imageDestinationFor } from '../llm/image-destination.js';
import { genericDestination } from '../media/image-destination.js';
import type { ImagePolicy } from '../media/prepare-image.js';
import { retryPolicyFrom, type RetryPolicy } from '../llm/retry.js';
import type { AgentKind } from './agent-kind.js';
import type { TaskLimits } from './task-budget.js';
import { MAX_SUBTASKS_LIMIT, type WorkflowDefinition } from './workflow-definition.js';

/**
 * Upper bound on `--max-step` / `max_steps`: the reference runs 6 rounds, and a model that calls a
 * tool every round otherwise runs (and grows the store) for as long as the bound allows.
 */
export const MAX_STEP_LIMIT = 100;

/** Why a round bound is refused, or undefined when it is within MAX_STEP_LIMIT. */
export function maxStepProblem(value: number): string | undefined {
  return Number.isSafeInteger(value) && value <= MAX_STEP_LIMIT
    ? undefined
    : `${value} rounds is above the limit of ${MAX_STEP_LIMIT} (the reference runs 6; larger budgets only let a looping model run on)`;
}

export interface AgentOptions {
  /** How the model calls tools (src/agent/agent-kind.ts); default `function-call`. */
  agent?: AgentKind;
  /** Put before the system prompt (a benchmark file's agent instruction). */
  instruction?: string;
  /** Upper bound on tool-calling rounds (reference --max_step). */
  maxStep: number;
  /** Calls executed per round, all in parallel (reference --max_concurrent). */
  maxConcurrent: number;
  /** 0 = every tool; N = the N best tools by lexical ranking (reference TOP_TOOLS). */
  topTools: number;
  maxNewTokens: number;
  mergePrepareWork: boolean;
  skipEndStage: boolean;
  instructionRole: 'user' | 'system';
  /** Model-facing truncation of tool results; records keep the full text. 0 disables. */
  toolResultMaxChars: number;
  imagePolicy: ImagePolicy;
  retry: RetryPolicy;
  toolCallTimeoutMs: number;
  temperature?: number;
  seed?: number;
  /** Folders from which image files named in tool results may be read and shown to the model. */
  imageRoots: string[];
  /** Run this workflow instead of one agent (src/agent/workflow.ts). */
  workflow?: WorkflowDefinition;
  /** What one task may spend (m3 run --token-limit, --message-limit, --cost-limit); none: unlimited. */
  taskLimits?: TaskLimits;
}

export interface LoopLimits {
  /** Recorded in the manifest's options and its config hash: the kind shapes every request. */
  agent?: AgentKind;
  /** Put before the system prompt (a benchmark file's agent instruction). */
  instruction?: string;
  maxStep: number;
  maxConcurrent: number;
  topTools: number;
  maxNewTokens: number;
  temperature?: number;
  seed?: number;
  /** A benchmark file's workflow (recorded in the manifest, with its hash, and in the config hash). */
  workflow?: WorkflowDefinition;
  /** Per-task limits (src/agent/task-budget.ts); recorded in the manifest's options and config hash. */
  taskLimits?: TaskLimits;
}

/** M3_IMAGE_POLICY: the reference rule, or the transport policy for the model's endpoint (PNG/JPEG only when unknown). */
function imagePolicyFrom(switches: Switches, modelSpec: string | undefined): ImagePolicy {
  const reference = { recodeOverKb: switches.M3_IMAGE_RECODE_OVER_KB, maxEdge: switches.M3_IMAGE_MAX_EDGE };
  if (switches.M3_IMAGE_POLICY === 'reference') return reference;
  return { ...reference, transport: modelSpec ? imageDestinationFor(modelSpec) : genericDestination };
}

/** The library's own check of the caps (the CLI and benchmark files refuse earlier, naming the flag or field). */
function checkLimits(limits: LoopLimits): void {
  const problem = maxStepProblem(limits.maxStep);
  if (problem) throw new ConfigError(`max steps: ${problem}`);
  const workflow = limits.workflow;
  if (!workflow) return;
  if (!Number.isSafeInteger(workflow.maxSubtasks) || workflow.maxSubtasks > MAX_SUBTASKS_LIMIT)
    throw new ConfigError(`workflow "${workflow.name}": max_subtasks ${workflow.maxSubtasks} is above the limit of ${MAX_SUBTASKS_LIMIT}`);
  for (const agent of workflow.agents) {
    const agentProblem = agent.maxStep === undefined ? undefined : maxStepProblem(agent.maxStep);
    if (agentProblem) throw new ConfigError(`workflow "${workflow.name}", agent "${agent.name}": max_steps ${agentProblem}`);
  }
}

export function agentOptionsFrom(switches: Switches, limits: LoopLimits, imageRoots: string[], modelSpec?: string): AgentOptions {
  checkLimits(limits);
  return {
    ...(limits.agent ? { agent: limits.agent } : {}),
    ...(limits.instruction ? { instruction: limits.instruction } : {}),
    maxStep: Math.max(1, limits.maxStep),
    maxConcurrent: Math.max(1, limits.maxConcurrent),
    topTools: Math.max(0, limits.topTools),
    maxNewTokens: limits.maxNewTokens,
    mergePrepareWork: switches.M3_MERGE_PREPARE_WORK,
    skipEndStage: switches.M3_SKIP_END_STAGE,
    instructionRole: switches.M3_INSTRUCTION_ROLE,
    toolResultMaxChars: switches.M3_TOOL_RESULT_MAX_CHARS,
    imagePolicy: imagePolicyFrom(switches, modelSpec),
    retry: retryPolicyFrom(switches),
    toolCallTimeoutMs: switches.M3_TOOL_CALL_TIMEOUT * 1000,
    ...(limits.temperature !== undefined ? { temperature: limits.temperature } : {}),
    ...(limits.seed !== undefined ? { seed: limits.seed } : {}),
    imageRoots,
    ...(limits.workflow ? { workflow: limits.workflow } : {}),
    ...(limits.taskLimits ? { taskLimits: limits.taskLimits } : {}),
  };
}
