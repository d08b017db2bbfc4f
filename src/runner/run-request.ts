// What one `runModel` call runs: a model under one condition over a task set. Its own module so
// the runner's parts (run-model, run-trial, run-row) share the type without importing each other.
import type { LoopLimits } from '../agent/options.js';
import type { ConditionSet } from './conditions.js';
import type { TaskSet } from './task-set.js';

import type { AgentEventListener } from '../agent/events.js';
import type { BatchSettings } from './provider-batch.js';
import type { ResponseCacheSettings } from './response-cache.js';
import type { RunBudget } from './run-cost.js';

export interface RunModelRequest {
  model: string;
  taskSet: TaskSet;
  limits: LoopLimits;
  concurrency: number;
  runId: string;
  resume: boolean;
  overwrite: boolean;
  output?: string;
  resultsDir: string;
  /**
   * The run folder, when the servers may write into it (execute-run.ts adds it to their allowed
   * roots): task workspaces go to <workspaceRoot>/workspaces/ instead of media/.
   */
  workspaceRoot?: string;
  shard?: { index: number; count: number };
  imageDirs: string[];
  allowMissingServers: boolean;
  /** `--placeholder-images`: a missing task image is replaced by a labelled stand-in file. */
  placeholderImages?: boolean;
  /** Trials per task (default 1) and the condition of this cell (default baseline). */
  trials?: number;
  condition?: ConditionSet;
  batchId?: string;
  /** Continue a resumed run whose tool surface changed (the drift is recorded). */
  allowToolDrift?: boolean;
  /** Ctrl-C: stops the batch gracefully (see BatchOptions.signal). */
  signal?: AbortSignal;
  /** Added to the cell label of the run's files and store rows: `.k<K>` for a max-rounds sweep cell. */
  labelSuffix?: string;
  /** `--trace-file`: write `<results>/<label>.trace.jsonl` per trial (src/runner/trace-file.ts). */
  traceFile?: boolean;
  /** Another consumer of the episode event stream (`--verbose`: src/agent/verbose-view.ts). */
  onEvent?: AgentEventListener;
  /** `--cache`: model responses served from and recorded in this cache (src/runner/response-cache.ts). */
  cache?: ResponseCacheSettings;
  /** `--batch`: requests go through the vendor's batch API (src/runner/provider-batch.ts). */
  batch?: BatchSettings;
  /** `--max-cost`: the invocation's budget, shared by every cell (src/runner/run-cost.ts). */
  runBudget?: RunBudget;
}
