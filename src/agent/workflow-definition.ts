// What a workflow is (src/agent/workflow.ts runs it): several agents of the kinds in
// src/agent/agent-kind.ts under one episode. A benchmark file's `kind: workflow` document
// becomes this definition (src/cli/bench-file.ts); it travels with the loop limits, so the run
// manifest records it and its hash.
import type { AgentKind } from './agent-kind.js';

export const WORKFLOW_TYPES = ['chain', 'router', 'orchestrator'] as const;
type WorkflowType = (typeof WORKFLOW_TYPES)[number];

/** One agent of a workflow: a `kind: agent` document. */
export interface WorkflowAgent {
  name: string;
  kind: AgentKind;
  instruction?: string;
  /** Only these servers' tools are offered to this agent; all of the task's when unset. */
  servers?: string[];
  /** This agent's max rounds; the run's --max-step when unset. */
  maxStep?: number;
}

/** Upper bound on an orchestrator's `max_subtasks`: each subtask is a whole agent episode. */
export const MAX_SUBTASKS_LIMIT = 20;

export interface WorkflowDefinition {
  name: string;
  type: WorkflowType;
  agents: WorkflowAgent[];
  /** Put before the router's or orchestrator's own prompt. */
  instruction?: string;
  /** Orchestrator: at most this many subtasks are dispatched (the rest of a longer plan is dropped and recorded). */
  maxSubtasks: number;
}

/** What a workflow decided, recorded in the prediction's `workflow` field. */
export interface WorkflowRecord {
  name: string;
  type: WorkflowType;
  /** The agents that ran, in execution order (the workflow's own name for its planning requests). */
  order: string[];
  /** Router: the agent it picked (null: the reply named none) and its reason. */
  route?: { agent: string | null; reason: string };
  /** Orchestrator: the subtasks dispatched, in order. */
  subtasks?: Array<{ agent: string; task: string }>;
  /** Router or orchestrator: why its reply could not be used as it stood. */
  plan_error?: string;
}
