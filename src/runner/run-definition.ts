// The one internal definition of a run: `m3 run` builds it from flags, `m3 bench` from a YAML
// benchmark file (src/cli/bench-file.ts), and both run it through executeRun (src/runner/execute-run.ts),
// so equal definitions give equal runs and equal manifests.
import type { AgentKind } from '../agent/agent-kind.js';
import type { LoopLimits } from '../agent/options.js';
import type { WorkflowDefinition } from '../agent/workflow-definition.js';
import type { TaskLimits } from '../agent/task-budget.js';

/** The loop limits are LoopLimits' own fields; the rest is what the run command needs. */
export interface RunDefinition extends Omit<LoopLimits, 'agent' | 'instruction' | 'maxStep'> {
  /** Max rounds: `6`, or a list `2,4,6` (a max-rounds sweep: one cell per value). */
  maxStep: string;
  model: string[];
  /** True when no model was asked for (the oracle replay:gt runs). */
  defaultModel?: boolean;
  agent: AgentKind;
  /** Extra system instruction of the agent (a YAML agent's `instruction`). */
  instruction?: string;
  /** A benchmark file's workflow (src/agent/workflow.ts): its agents replace `agent` and `instruction`. */
  workflow?: WorkflowDefinition;
  /** Only these configured servers start (a YAML agent's `servers`); all when unset. */
  servers?: string[];
  /** Task files run together: M3-Bench task files and MCP-Universe task files (src/runner/task-set.ts). */
  tasks: string[];
  gt?: string;
  imageDir?: string;
  concurrency: number;
  /** `--resume [run-id]`: continue a run (true: the latest run of the first cell, or --run-id's). */
  resume?: boolean | string;
  overwrite?: boolean;
  runId?: string;
  output?: string;
  /** The results root: the store, `latest` and `runs/<run-id>/` live under it. */
  resultsDir: string;
  /** `--run-dir`: write this run's files into exactly this folder (no `runs/<run-id>/`, no `latest`). */
  runDir?: string;
  shard?: string;
  store?: string;
  config?: string;
  startupTimeout: number;
  fuzzy: boolean;
  allowMissingServers?: boolean;
  /** `--placeholder-images`: missing task images run on labelled stand-ins (a pipeline check). */
  placeholderImages?: boolean;
  /** Trials per task and the named conditions (src/runner/conditions.ts), one cell each. */
  trials: number;
  condition?: string[];
  allowToolDrift?: boolean;
  json?: boolean;
  /** `--trace-file`: a JSONL trace per run beside the store (src/runner/trace-file.ts). */
  traceFile?: boolean;
  /** `--verbose`: every intermediate step on stderr, redacted (src/agent/verbose-view.ts). */
  verbose?: boolean;
  /** `--cache [policy]`: the model-response cache (src/runner/response-cache.ts); off when unset. */
  cache?: string | boolean;
  /** `--cache-file`: default <results-dir>/model-cache.sqlite. */
  cacheFile?: string;
  /** `--cache-max-age`: entries older than this many seconds are not served. */
  cacheMaxAge?: number;
  /** `--batch`: requests go through the vendor's batch API (src/runner/provider-batch.ts). */
  batch?: boolean;
  /** `--batch-window <ms>` and `--batch-poll <ms>`: when a job is submitted, how soon it is first polled. */
  batchWindow?: number;
  batchPoll?: number;
  /** `--tool-surface`: m3bench (default), reference or reference:<catalog file> (src/mcp/tool-surface.ts). */
  toolSurface?: string;
  /** `--token-limit`, `--message-limit`, `--cost-limit` (USD): what one task may spend (src/agent/task-budget.ts). */
  tokenLimit?: number;
  messageLimit?: number;
  costLimit?: number;
  /** `--max-cost` (USD): once the invocation paid this much, no new task starts (src/runner/run-cost.ts). */
  maxCost?: number;
  /** `--estimate`: print what the run would cost (src/estimate/) instead of running it. */
  estimate?: boolean;
}

/** The per-task limits of a definition, or undefined when none is set. */
function taskLimitsOf(definition: RunDefinition): TaskLimits | undefined {
  const limits: TaskLimits = {
    ...(definition.tokenLimit !== undefined ? { tokens: definition.tokenLimit } : {}),
    ...(definition.messageLimit !== undefined ? { messages: definition.messageLimit } : {}),
    ...(definition.costLimit !== undefined ? { costUsd: definition.costLimit } : {}),
  };
  return Object.keys(limits).length > 0 ? limits : undefined;
}

/** The defaults of every `m3 run` flag, shared with `m3 bench`. */
export const RUN_DEFAULTS = {
  model: ['replay:gt'],
  agent: 'function-call' as AgentKind,
  tasks: ['json/m3_local_tasks.json'],
  concurrency: 5,
  maxStep: '6',
  trials: 1,
  maxConcurrent: 10,
  topTools: 0,
  maxNewTokens: 8192,
  resultsDir: 'results',
  config: 'mcp_servers.json',
  startupTimeout: 120,
  fuzzy: true,
  toolSurface: 'm3bench',
} satisfies Partial<RunDefinition>;

/** The loop limits a definition gives every model (recorded in the manifest and its config hash). */
export function loopLimitsOf(definition: RunDefinition, maxStep = Number(definition.maxStep.split(',')[0])): LoopLimits {
  const taskLimits = taskLimitsOf(definition);
  return {
    ...(definition.workflow
      ? { workflow: definition.workflow }
      : { agent: definition.agent, ...(definition.instruction ? { instruction: definition.instruction } : {}) }),
    maxStep,
    maxConcurrent: definition.maxConcurrent,
    topTools: definition.topTools,
    maxNewTokens: definition.maxNewTokens,
    ...(definition.temperature !== undefined ? { temperature: definition.temperature } : {}),
    ...(definition.seed !== undefined ? { seed: definition.seed } : {}),
    ...(taskLimits ? { taskLimits } : {}),
  };
}
