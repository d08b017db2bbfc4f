// One attempt at one task: workspace, images, the episode under the task's wall-clock budget,
// and the prediction record. Failures come back as verdicts, never as throws.
import { TaskTimeoutError } from '../errors/index.js';
import type { ImagePart } from '../core/content.js';
import { EpisodeFailure, runEpisode, type EpisodeTrace } from '../agent/episode.js';
import type { AgentEventListener } from '../agent/events.js';
import type { AgentOptions } from '../agent/options.js';
import { toPrediction } from '../agent/to-prediction.js';
import type { ModelDriver } from '../llm/types.js';
import type { ToolCallInterceptor } from '../mcp/checked-call.js';
import type { ToolHost } from '../mcp/types.js';
import { loadImageFile } from '../media/load-image.js';
import type { PredictionRecord } from '../tasks/schemas.js';
import { classifyFailure, type FailureVerdict } from './failure.js';
import type { RunnableTask } from './task-set.js';
import { prepareWorkspace, resolveTaskImages, type WorkspaceMode } from './workspace.js';

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
}

export type TaskOutcome =
  | { ok: true; prediction: PredictionRecord; trace: EpisodeTrace; durationMs: number }
  | { ok: false; verdict: FailureVerdict; prediction?: PredictionRecord; trace?: EpisodeTrace; durationMs: number };

export function userTextFor(question: string, displayPaths: readonly string[]): string {
  if (displayPaths.length === 0) return question;
  const lines = displayPaths.map((shown) => `- ${shown.split('/').pop()}: file=${shown}`);
  return `${question}\n\n[with images]\n${lines.join('\n')}`;
}

async function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, timeoutMs: number, taskId: string): Promise<T> {
  const controller = new AbortController();
  if (timeoutMs <= 0) return work(controller.signal);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new TaskTimeoutError(`task ${taskId} exceeded its ${Math.round(timeoutMs / 1000)} s budget (M3_TASK_TIMEOUT)`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([work(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function runTask(task: RunnableTask, env: TaskEnvironment, onEvent?: AgentEventListener): Promise<TaskOutcome> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  try {
    if (task.missingServers && task.missingServers.length > 0) {
      const verdict: FailureVerdict = {
        status: 'infra_failure', kind: 'infra', code: 'unknown_server', requeue: false,
        message: `task ${task.id}: its ground truth uses server(s) that are not running: ${task.missingServers.join(', ')} (add them to mcp_servers.json, or pass --allow-missing-servers to run it anyway)`,
      };
      return { ok: false, verdict, durationMs: elapsed() };
    }
    const { found, missing } = resolveTaskImages(task.image, env.imageSearchDirs);
    if (missing.length > 0) {
      const verdict: FailureVerdict = {
        status: 'infra_failure', kind: 'infra', code: 'missing_image', requeue: false,
        message: `task ${task.id}: image not found: ${missing.join(', ')} (searched ${env.imageSearchDirs.join(', ')}; set --image-dir or M3_IMAGE_DIR)`,
      };
      return { ok: false, verdict, durationMs: elapsed() };
    }
    const workspace = await prepareWorkspace({ mode: env.workspaceMode, root: env.root, runId: env.runId, taskId: task.id, sources: found, keep: env.keepWorkspace });
    try {
      const images: ImagePart[] = [];
      for (const file of workspace.images) images.push(await loadImageFile(file, env.options.imagePolicy));
      const trace = await withTimeout(
        (signal) =>
          runEpisode(
            {
              taskId: task.id, question: task.question, userText: userTextFor(task.question, workspace.displayPaths), images, cwd: env.root,
              callContext: { taskId: task.id, runId: env.runId, workspace: workspace.dir },
            },
            { driver: env.driver, host: env.host, options: env.options, signal, ...(onEvent ? { onEvent } : {}), ...(env.interceptor ? { interceptor: env.interceptor } : {}) },
          ),
        env.taskTimeoutMs,
        task.id,
      );
      return { ok: true, prediction: toPrediction(task, task.question, trace), trace, durationMs: elapsed() };
    } finally {
      await workspace.cleanup();
    }
  } catch (error) {
    const verdict = classifyFailure(error);
    if (error instanceof EpisodeFailure) {
      const prediction = toPrediction(task, task.question, error.trace);
      return { ok: false, verdict, prediction, trace: error.trace, durationMs: elapsed() };
    }
    return { ok: false, verdict, durationMs: elapsed() };
  }
}
