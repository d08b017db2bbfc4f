// What one task of a run is expected to send and receive, for `m3 run --estimate` (no model
// request, no server start): the requests its episode makes (the ground truth's rounds, bounded
// by --max-step), the task images as the transport policy prepares them for the model's endpoint
// (src/media/: the same preparation and audit the run records per request), and the text the
// requests carry, in tokens. Text is counted at a fixed number of characters per token and a
// tool result at a fixed size (the estimate cannot call the tools); both are stated beside every
// estimate (estimateAssumptions) and calibrated by `m3 summary`'s estimate vs actual.
import type { AgentOptions } from '../agent/options.js';
import * as prompts from '../agent/prompts.js';
import { rankTools } from '../agent/tool-ranking.js';
import type { ImagePart } from '../core/content.js';
import type { VisionVendor } from '../media/vision-tokens.js';
import { loadImageFile } from '../media/load-image.js';
import { imageDeliveryOf, imagePayloadOf } from '../media/request-images.js';
import type { CatalogTool } from '../mcp/types.js';
import type { GtTask } from '../tasks/schemas.js';
import { userTextFor } from './run-task.js';
import type { RunnableTask } from './task-set.js';
import { resolveTaskImages } from './workspace.js';

/** Characters per text token (the usual rule of thumb for English and JSON with these tokenizers). */
export const CHARS_PER_TOKEN = 4;
/** What one tool result is assumed to add to the history, in characters (the estimate runs no tool). */
export const TOOL_RESULT_CHARS = 400;
/** Tokens a reply spends beyond its visible text and calls (an end marker, a call's framing). */
const REPLY_OVERHEAD_TOKENS = 5;
/** Characters a call adds to an assistant turn beyond its name and arguments (id, type, wrapper). */
const CALL_OVERHEAD_CHARS = 60;

export interface TaskEstimate {
  taskId: string;
  /** Rounds of tool calls the ground truth has (null: no ground truth; --max-step is assumed). */
  gtRounds: number | null;
  requests: number;
  /** Per request: the task images, as prepared for this model's endpoint. */
  images: { count: number; bytes: number; estimatedTokens: number | null };
  inputTokens: number;
  outputTokens: number;
  /** Input tokens of the text the first request carries (system prompt, tools, question). */
  baseTextTokens: number;
}

const tokensOf = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);

/** Requests of one episode with `rounds` rounds of calls (src/agent/episode.ts): each round, then the answering reply. */
function requestsFor(rounds: number, options: Pick<AgentOptions, 'agent' | 'maxStep' | 'mergePrepareWork' | 'skipEndStage'>): number {
  if (options.agent === 'basic') return 1;
  const played = Math.min(rounds, options.maxStep);
  // The reply after the last round: the answer (a round without calls), or the final-answer request after max_step rounds.
  const perRound = (options.mergePrepareWork ? 1 : 2) + (options.skipEndStage ? 0 : 1);
  return played * perRound + (options.mergePrepareWork || rounds >= options.maxStep ? 1 : 2);
}

/** The task images as the run prepares them and as the request audit weighs them. */
async function taskImages(task: RunnableTask, imageDirs: readonly string[], options: AgentOptions, vendor: VisionVendor | undefined, acceptsImages: boolean) {
  const found = resolveTaskImages(task.image, imageDirs).found;
  const parts: ImagePart[] = await Promise.all(found.map((file) => loadImageFile(file, options.imagePolicy)));
  const entries = await imageDeliveryOf([{ role: 'user', content: parts }], acceptsImages);
  return { payload: imagePayloadOf(entries, vendor), files: found };
}

/** Characters the model writes for one ground-truth round on average: each call's name and arguments. */
function callChars(gt: GtTask | undefined): number {
  const steps = gt?.steps ?? [];
  if (steps.length === 0) return 0;
  const total = steps.reduce(
    (sum, step) => sum + step.calls.reduce((calls, call) => calls + String(call.name).length + JSON.stringify(call.arguments ?? {}).length, 0),
    0,
  );
  return total / steps.length;
}

/** Characters one ground-truth round adds to the history: its calls, their framing and their (assumed) results. */
function roundChars(gt: GtTask | undefined): number {
  const steps = gt?.steps ?? [];
  const calls = steps.length === 0 ? 1 : steps.reduce((sum, step) => sum + step.calls.length, 0) / steps.length;
  return callChars(gt) + calls * (CALL_OVERHEAD_CHARS + TOOL_RESULT_CHARS);
}

/** The text every request of the task carries: system prompt with the offered tools, their definitions, the question. */
function baseChars(task: RunnableTask, tools: readonly CatalogTool[], options: AgentOptions, imageFiles: readonly string[]): number {
  const kind = options.agent ?? 'function-call';
  const offered = kind === 'basic' ? [] : rankTools(task.question, tools, options.topTools);
  const system = prompts.systemPromptFor(kind, options.maxStep, options.maxConcurrent, offered);
  const definitions =
    kind === 'function-call'
      ? JSON.stringify(offered.map((tool) => ({ name: tool.functionName, description: tool.description, parameters: tool.inputSchema })))
      : '';
  const user = userTextFor(task.question, imageFiles, task.hints);
  const instruction = prompts.roundInstruction(1, options.maxStep, options.maxConcurrent);
  return (options.instruction?.length ?? 0) + system.length + definitions.length + user.length + instruction.length;
}

export interface EstimateContext {
  tools: readonly CatalogTool[];
  options: AgentOptions;
  imageDirs: readonly string[];
  vendor: VisionVendor | undefined;
  acceptsImages: boolean;
}

export async function estimateTask(task: RunnableTask, gt: GtTask | undefined, context: EstimateContext): Promise<TaskEstimate> {
  const { options } = context;
  const gtRounds = gt ? gt.steps.length : null;
  const rounds = gtRounds ?? options.maxStep;
  const requests = requestsFor(rounds, options);
  const { payload, files } = await taskImages(task, context.imageDirs, options, context.vendor, context.acceptsImages);
  const baseTextTokens = tokensOf(baseChars(task, context.tools, options, files));
  const perRound = tokensOf(roundChars(gt));
  const played = Math.min(rounds, options.maxStep);
  let inputTokens = 0;
  // Request k carries the history of the rounds before it (every earlier image is re-sent with it).
  for (let k = 1; k <= requests; k += 1) inputTokens += baseTextTokens + (payload.estimatedTokens ?? 0) + Math.min(k - 1, played) * perRound;
  const callTokens = played * tokensOf(callChars(gt));
  const answerTokens = tokensOf(gt?.final_reply?.length ?? 200);
  const outputTokens = callTokens + answerTokens + requests * REPLY_OVERHEAD_TOKENS;
  return { taskId: task.id, gtRounds, requests, images: payload, inputTokens, outputTokens, baseTextTokens };
}
