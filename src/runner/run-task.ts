// One attempt at one task: workspace, images, the episode under the task's wall-clock budget,
// and the prediction record. Failures come back as verdicts, never as throws.
import { TaskTimeoutError } from '../errors/index.js';
import type { ImagePart } from '../core/content.js';
import { EpisodeFailure, runEpisode, type EpisodeDeps, type EpisodeInput, type EpisodeTrace } from '../agent/episode.js';
import { runWorkflow } from '../agent/workflow.js';
import { TaskBudget } from '../agent/task-budget.js';
import type { CostOf } from '../llm/pricing.js';
import type { AgentEventListener } from '../agent/events.js';
import type { AgentOptions } from '../agent/options.js';
import { toPrediction } from '../agent/to-prediction.js';
import type { ModelDriver } from '../llm/types.js';
import type { ToolCallInterceptor } from '../mcp/checked-call.js';
import type { ToolHost } from '../mcp/types.js';
import { loadImageFile } from '../media/load-image.js';
import { markWithheld } from '../media/request-images.js';
import { PREDICTION_PLACEHOLDER_FIELD, writeMissingImageStandIn } from '../media/missing-image-stand-in.js';
import type { PredictionRecord } from '../tasks/schemas.js';
import { classifyFailure, RunInterruptedError, type FailureVerdict } from './failure.js';
import type { RunnableTask } from './task-set.js';
import { prepareWorkspace, resolveTaskImages, type WorkspaceMode } from './workspace.js';
import { promptHash } from './prompt-hash.js';
import { narrowHost } from '../mcp/narrowed-host.js';
import type { UniverseTask } from '../tasks/universe-task.js';
import { toTimerMs } from '../config/timer-ms.js';
import { checkEpisodeState, resetTaskState, STATE_RESULTS_FIELD, type StateResult } from '../eval/state/episode-state.js';

export interface TaskEnvironment {
  driver: ModelDriver;
  host: ToolHost;
  options: AgentOptions;
  root: string;
  runId: string;
  workspaceMode: WorkspaceMode;
  keepWorkspace: boolean;
  imageSearchDirs: string[];
  taskTimeoutMs: number;
  /** The tool fallback layer (src/fallback/), when M3_MOCK_FALLBACK or M3_MOCK_RECORD is on. */
  interceptor?: ToolCallInterceptor;
  /** Folder name of this trial's workspaces (under the run folder, or media/runs/); default the run id. */
  workspaceRunId?: string;
  /** The run folder: per-task workspaces go into its workspaces/ instead of media/ (src/runner/workspace.ts). */
  workspaceRoot?: string;
  /** The run's stop signal (Ctrl-C): aborts an attempt in flight, which ends as `interrupted`. */
  signal?: AbortSignal;
  /** `--placeholder-images`: where stand-ins for missing task images are written (src/media/missing-image-stand-in.ts). */
  placeholderImagesDir?: string;
  /** USD of a usage at the model's price (null: no price), for the task's --cost-limit. */
  costOf?: CostOf;
  /** A robustness condition's view of the tool host for one task (src/robustness/). */
  taskHost?: (host: ToolHost, taskId: string) => ToolHost;
}

/** The host one task sees: narrowed to an MCP-Universe task's servers, then changed by the condition. */
function taskHostFor(task: RunnableTask, env: TaskEnvironment): ToolHost {
  const host = task.universe && task.universe.servers.length > 0 ? narrowHost(env.host, task.universe.servers) : env.host;
  return env.taskHost ? env.taskHost(host, task.id) : host;
}

/** `promptHash` (src/runner/prompt-hash.ts) is set once the task's images were read. */
export type TaskOutcome = (
  | { ok: true; prediction: PredictionRecord; trace: EpisodeTrace; durationMs: number; promptHash: string }
  | { ok: false; verdict: FailureVerdict; prediction?: PredictionRecord; trace?: EpisodeTrace; durationMs: number; promptHash?: string }
) & {
  /** The task's image entries that were missing and ran on labelled stand-ins (--placeholder-images). */
  placeholderImages?: string[];
};

/** The prediction field holding the task's prompt hash (beside the reference's fields). */
const PROMPT_HASH_FIELD = 'prompt_hash';

/**
 * What an MCP-Universe task adds to its prediction record, beside the reference's fields: its
 * evaluators (read by `m3 eval task`, src/eval/task/run.ts, so no task file is needed to score
 * it), the servers its tools were narrowed to, its category and its file.
 */
function universeFields(task: UniverseTask | undefined): Record<string, unknown> {
  if (!task) return {};
  return { category: task.category, task_file: task.file, mcp_servers: task.servers, evaluators: task.evaluators };
}

export function userTextFor(question: string, displayPaths: readonly string[], hints: readonly string[] = []): string {
  const hinted = hints.length > 0 ? `${question}\n\n${hints.join('\n')}` : question;
  if (displayPaths.length === 0) return hinted;
  const lines = displayPaths.map((shown) => `- ${shown.split('/').pop()}: file=${shown}`);
  return `${hinted}\n\n[with images]\n${lines.join('\n')}`;
}

/** Why the run stopped, as the error an interrupted attempt ends with. */
function interruption(signal: AbortSignal): RunInterruptedError {
  return signal.reason instanceof RunInterruptedError ? signal.reason : new RunInterruptedError(`the run was stopped (${String(signal.reason)})`);
}

/**
 * Runs the episode under the task budget and the run's stop signal: whichever comes first
 * aborts the episode and ends the attempt at once with its error (the abandoned episode
 * winds down in the background; its late events are harmless).
 */
async function withBudget<T>(work: (signal: AbortSignal) => Promise<T>, timeoutMs: number, taskId: string, stop: AbortSignal | undefined): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onStop: (() => void) | undefined;
  const ended = new Promise<never>((_, reject) => {
    const end = (error: Error) => {
      controller.abort(error);
      reject(error);
    };
    if (timeoutMs > 0) {
      timer = setTimeout(
        () => end(new TaskTimeoutError(`task ${taskId} exceeded its ${Math.round(timeoutMs / 1000)} s budget (M3_TASK_TIMEOUT)`)),
        toTimerMs(timeoutMs),
      );
    }
    if (stop) {
      onStop = () => end(interruption(stop));
      if (stop.aborted) onStop();
      else stop.addEventListener('abort', onStop, { once: true });
    }
  });
  try {
    return await Promise.race([work(controller.signal), ended]);
  } finally {
    clearTimeout(timer);
    if (onStop) stop?.removeEventListener('abort', onStop);
  }
}

function infraVerdict(code: string, message: string): FailureVerdict {
  return { status: 'infra_failure', kind: 'infra', code, requeue: false, message };
}

/**
 * The task's images, confined to the image folders and decoded from their bytes BEFORE
 * anything is copied into media/, so a refused file (a path outside the folders, a text file
 * named .png, a corrupt image) never lands in the workspace. Throws MediaError for bad bytes.
 */
async function loadTaskImages(
  task: RunnableTask,
  env: TaskEnvironment,
): Promise<{ sources: string[]; images: ImagePart[]; placeholders: string[] } | FailureVerdict> {
  const { found, missing, outside } = resolveTaskImages(task.image, env.imageSearchDirs);
  if (outside.length > 0) {
    return infraVerdict(
      'bad_task_input',
      `task ${task.id}: image path outside the image folders: ${outside.join(', ')} (task images must lie inside ${env.imageSearchDirs.join(', ')}; set --image-dir or M3_IMAGE_DIR)`,
    );
  }
  if (missing.length > 0 && env.placeholderImagesDir === undefined) {
    return infraVerdict(
      'missing_image',
      `task ${task.id}: image not found: ${missing.join(', ')} (searched ${env.imageSearchDirs.join(', ')}; set --image-dir or M3_IMAGE_DIR, or pass --placeholder-images for a pipeline check)`,
    );
  }
  // Stand-ins are generated only for entries that name no file; a file that exists is used as is.
  const sources = [...found];
  for (const entry of missing) sources.push(await writeMissingImageStandIn(entry, env.placeholderImagesDir as string));
  const images: ImagePart[] = [];
  for (const file of sources) images.push(await loadImageFile(file, env.options.imagePolicy));
  return { sources, images, placeholders: missing };
}

export async function runTask(task: RunnableTask, env: TaskEnvironment, onEvent?: AgentEventListener): Promise<TaskOutcome> {
  let placeholders: string[] = [];
  const outcome = await attemptTask(
    task,
    env,
    (names) => {
      placeholders = names;
    },
    onEvent,
  );
  if (placeholders.length === 0) return outcome;
  const labelled = outcome.prediction ? { ...outcome.prediction, [PREDICTION_PLACEHOLDER_FIELD]: placeholders } : undefined;
  return { ...outcome, ...(labelled ? { prediction: labelled } : {}), placeholderImages: placeholders } as TaskOutcome;
}

async function attemptTask(
  task: RunnableTask,
  env: TaskEnvironment,
  usedPlaceholders: (entries: string[]) => void,
  onEvent?: AgentEventListener,
): Promise<TaskOutcome> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let hash: string | undefined;
  const hashed = () => (hash ? { promptHash: hash } : {});
  let stateResults: StateResult[] | undefined;
  const predictionOf = (trace: EpisodeTrace): PredictionRecord => ({
    ...toPrediction(task, task.question, trace),
    ...(hash ? { [PROMPT_HASH_FIELD]: hash } : {}),
    ...universeFields(task.universe),
    ...(stateResults ? { [STATE_RESULTS_FIELD]: stateResults } : {}),
  });
  try {
    if (task.missingServers && task.missingServers.length > 0) {
      const verdict = infraVerdict(
        'unknown_server',
        `task ${task.id}: ${task.universe ? 'its mcp_servers name' : 'its ground truth uses'} server(s) that are not running: ${task.missingServers.join(', ')} (add them to mcp_servers.json, or pass --allow-missing-servers to run it anyway)`,
      );
      return { ok: false, verdict, durationMs: elapsed() };
    }
    const loaded = await loadTaskImages(task, env);
    if ('status' in loaded) return { ok: false, verdict: loaded, durationMs: elapsed() };
    usedPlaceholders(loaded.placeholders);
    hash = promptHash({ question: task.question, imageFiles: loaded.sources, toolsHash: env.host.toolsHash() });
    const workspace = await prepareWorkspace({
      mode: env.workspaceMode,
      root: env.root,
      runId: env.workspaceRunId ?? env.runId,
      taskId: task.id,
      sources: loaded.sources,
      keep: env.keepWorkspace,
      ...(env.workspaceRoot ? { runDir: env.workspaceRoot } : {}),
    });
    const callContext = { taskId: task.id, runId: env.runId, workspace: workspace.dir };
    const stateChecks = task.stateChecks ?? [];
    try {
      if (stateChecks.length > 0) resetTaskState(callContext, stateChecks);
      // The facts name the copy the model and tools see, not the dataset file it came from.
      const images = loaded.images.map((part, index) =>
        part.facts ? { ...part, facts: { ...part.facts, source: workspace.images[index] ?? part.facts.source } } : part,
      );
      // Stand-ins follow the found images (loadTaskImages): the audit names them as placeholders.
      const firstStandIn = images.length - loaded.placeholders.length;
      images.forEach((part, index) => {
        if (index >= firstStandIn)
          markWithheld(part, part, `missing task image ${loaded.placeholders[index - firstStandIn]}: stand-in from --placeholder-images`);
      });
      const input: EpisodeInput = {
        taskId: task.id,
        question: task.question,
        userText: userTextFor(task.question, workspace.displayPaths, task.hints),
        images,
        cwd: env.root,
        callContext,
      };
      const trace = await withBudget(
        (signal) => {
          const deps: EpisodeDeps = {
            driver: env.driver,
            host: taskHostFor(task, env),
            options: env.options,
            signal,
            ...(onEvent ? { onEvent } : {}),
            ...(env.interceptor ? { interceptor: env.interceptor } : {}),
            ...(env.options.taskLimits ? { budget: new TaskBudget(env.options.taskLimits, env.costOf) } : {}),
          };
          return env.options.workflow ? runWorkflow(input, deps, env.options.workflow) : runEpisode(input, deps);
        },
        env.taskTimeoutMs,
        task.id,
        env.signal,
      ).finally(() => {
        // The state the episode left, read before the workspace (and its databases) is removed;
        // a failed episode keeps its results too, so the evaluation can say what it left.
        if (stateChecks.length > 0) stateResults = checkEpisodeState(callContext, stateChecks);
      });
      return { ok: true, prediction: predictionOf(trace), trace, durationMs: elapsed(), promptHash: hash };
    } finally {
      await workspace.cleanup();
    }
  } catch (error) {
    const verdict = classifyFailure(error);
    if (error instanceof EpisodeFailure)
      return { ok: false, verdict, prediction: predictionOf(error.trace), trace: error.trace, durationMs: elapsed(), ...hashed() };
    return { ok: false, verdict, durationMs: elapsed(), ...hashed() };
  }
}
