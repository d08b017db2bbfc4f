// One episode: the bounded loop of the 2026 reference semantics. Each round is one native
// tool-calling request (prepare and work merged unless M3_MERGE_PREPARE_WORK=0); the round ends
// the episode when the model answers without tool calls (no end-stage request unless
// M3_SKIP_END_STAGE=0); after max_step rounds a final-answer request without tools follows.
// `react` runs the same loop in text mode and `basic` makes one request without tools
// (src/agent/agent-kind.ts). A round in which a call failed for an infrastructure reason ends the episode as a failure.
import { serverOf } from '../core/canonical-name.js';
import type { EpisodeEnd } from '../core/end-status.js';
import type { ImagePart } from '../core/content.js';
import type { AssistantMessage, Message, ToolCall, ToolDefinition } from '../core/messages.js';
import { isInfrastructureErrorCode, TOOL_ERROR_PREFIX, type CallContext } from '../core/tool-result-contract.js';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import { M3Error, ProviderError, ServerError } from '../errors/index.js';
import { visionVendorOf } from '../llm/image-destination.js';
import { fitRequestImages, requestImageLimitsFor } from '../llm/request-image-limits.js';
import { addBilledUsage, billingOf, emptyBilledUsage, type BilledUsage } from '../llm/pricing.js';
import { generateWithRetry, ProviderAttemptsError } from '../llm/retry.js';
import type { GenerateRequest, GenerateResponse, ModelDriver } from '../llm/types.js';
import type { ToolCallInterceptor } from '../mcp/checked-call.js';
import type { ImageDelivery } from '../core/image-delivery.js';
import { imageDeliveryOf, imagePayloadOf } from '../media/request-images.js';
import type { CatalogTool, ToolHost } from '../mcp/types.js';
import type { AgentKind } from './agent-kind.js';
import { emitCallEnd, executeRound, type ExecutedCall } from './call-tools.js';
import { safeEmit, type AgentEventListener, type EpisodePurpose } from './events.js';
import { toolResultsMessage } from './history.js';
import { malformedCall, observationMessage, parseReactReply, type MalformedAction } from './react-actions.js';
import type { AgentOptions } from './options.js';
import type { WorkflowRecord } from './workflow-definition.js';
import * as prompts from './prompts.js';
import { rankTools } from './tool-ranking.js';
import { endOfReply } from './end-status.js';
import { LimitReached, TaskBudget } from './task-budget.js';

export interface EpisodeInput {
  taskId: string;
  /** The question as given (recorded in predictions). */
  question: string;
  /** The full first user text: question plus the list of image paths tools can use. */
  userText: string;
  images: ImagePart[];
  /** Working directory against which relative paths in tool results are resolved. */
  cwd: string;
  /** Sent with every tool call: the task (or demo session) id, the run id, its workspace folder. */
  callContext: CallContext;
  /** Earlier turns of a conversation (the demo's multi-turn sessions), placed before the new user turn. */
  priorMessages?: Message[];
}

interface RoundTrace {
  round: number;
  prepare: string;
  calls: ExecutedCall[];
  /** Round whose every call had unparseable arguments: the reference's "illegal" round. */
  unparseable: boolean;
  end: 'yes' | 'no';
  /** The workflow agent whose round this was (src/agent/workflow.ts). */
  agent?: string;
}

export interface EpisodeTrace {
  rounds: RoundTrace[];
  finalReply: string;
  usage: Usage;
  /** `usage` split by billing (src/llm/pricing.ts): synchronous, answered by a batch job, served by the model-response cache (nothing paid). */
  billed?: BilledUsage;
  modelCalls: number;
  warnings: string[];
  /** What a workflow decided (src/agent/workflow.ts); absent for one agent. */
  workflow?: WorkflowRecord;
  /** How the reply that ended the episode ended (answered, refused, truncated, ...); absent until it ends. */
  end?: EpisodeEnd;
}

export class EpisodeFailure extends M3Error {
  readonly trace: EpisodeTrace;
  constructor(cause: unknown, trace: EpisodeTrace) {
    super(cause instanceof M3Error ? cause.code : 'episode_failed', cause instanceof Error ? cause.message : String(cause), { cause });
    this.trace = trace;
  }
}

export interface EpisodeDeps {
  driver: ModelDriver;
  host: ToolHost;
  options: AgentOptions;
  onEvent?: AgentEventListener;
  signal?: AbortSignal;
  /** The hook where each finished call is judged (src/mcp/checked-call.ts). */
  interceptor?: ToolCallInterceptor;
  /** The task's limits (m3 run --token-limit, --message-limit, --cost-limit), shared by a workflow's agents; none: unlimited. */
  budget?: TaskBudget;
}

/**
 * The first call of a round that failed for an infrastructure reason (server crashed, not
 * running, timed out, upstream down), as the error that ends the episode: such an episode says
 * nothing about the model, so it is an infrastructure failure (requeued, never scored).
 */
function infrastructureFailure(calls: readonly ExecutedCall[]): ServerError | undefined {
  const failed = calls.find((call) => call.executed && isInfrastructureErrorCode(call.errorCode));
  if (!failed?.errorCode) return undefined;
  const server = serverOf(failed.canonicalName);
  const reason = failed.resultText.replace(TOOL_ERROR_PREFIX, '').split('\n')[0] ?? '';
  return new ServerError(server, `tool call ${failed.canonicalName} failed for an infrastructure reason (${failed.errorCode}): ${reason}`, {
    code: failed.errorCode,
  });
}

/** What one work reply asks for: the final answer, or calls (and, in text mode, malformed actions). */
interface Decision {
  final?: string;
  calls: ToolCall[];
  malformed: MalformedAction[];
}

function decide(kind: AgentKind, response: GenerateResponse, text: string): Decision {
  if (kind !== 'react') return response.toolCalls.length === 0 ? { final: text, calls: [], malformed: [] } : { calls: response.toolCalls, malformed: [] };
  const reply = parseReactReply(text);
  return reply.kind === 'final' ? { final: reply.answer, calls: [], malformed: [] } : { calls: reply.calls, malformed: reply.malformed };
}

/** A text-mode final reply without its "Final Answer:" label. */
function finalText(kind: AgentKind, text: string): string {
  if (kind !== 'react') return text;
  const reply = parseReactReply(text);
  return reply.kind === 'final' ? reply.answer : text;
}

function toDefinitions(tools: readonly CatalogTool[]): ToolDefinition[] {
  return tools.map((tool) => ({ name: tool.functionName, canonicalName: tool.canonicalName, description: tool.description, inputSchema: tool.inputSchema }));
}

export async function runEpisode(input: EpisodeInput, deps: EpisodeDeps): Promise<EpisodeTrace> {
  const { driver, host, options } = deps;
  const trace: EpisodeTrace = { rounds: [], finalReply: '', usage: emptyUsage(), billed: emptyBilledUsage(), modelCalls: 0, warnings: [] };
  const budget = deps.budget ?? new TaskBudget({});
  const kind = options.agent ?? 'function-call';
  const offered = kind === 'basic' ? [] : rankTools(input.question, host.tools, options.topTools);
  const base = prompts.systemPromptFor(kind, options.maxStep, options.maxConcurrent, offered);
  const system = options.instruction ? `${options.instruction}\n\n${base}` : base;
  const history: Message[] = [...(input.priorMessages ?? []), { role: 'user', content: [{ type: 'text', text: input.userText }, ...input.images] }];
  safeEmit(deps.onEvent, {
    type: 'episode_start',
    taskId: input.taskId,
    question: input.question,
    images: input.images.map((image) => image.facts?.source ?? 'image'),
  });

  const ask = async (purpose: EpisodePurpose, round: number, instruction: string, tools: ToolDefinition[]): Promise<GenerateResponse> => {
    const limit = budget.reached();
    if (limit) throw new LimitReached(limit);
    const built: GenerateRequest = {
      system: options.instructionRole === 'system' ? `${system}\n\n${instruction}` : system,
      messages: options.instructionRole === 'user' ? [...history, { role: 'user', content: [{ type: 'text', text: instruction }] }] : history,
      tools,
      toolChoice: tools.length > 0 ? 'auto' : 'none',
      maxTokens: options.maxNewTokens,
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      context: { taskId: input.taskId, round, purpose },
    };
    // History resends every earlier image: keep each request within the vendor's per-request image limits.
    const fitted = fitRequestImages(built, requestImageLimitsFor(driver.provider));
    const request = fitted.request;
    // The request's images as the driver received them (told by the runner's audit decorator,
    // which sits inside any condition); without one, the driver gets this very request.
    let delivered: ImageDelivery[] | undefined;
    const delivery = async () => delivered ?? (await imageDeliveryOf(request.messages, driver.acceptsImages));
    const retryOptions = { ...(deps.signal ? { signal: deps.signal } : {}), onImageDelivery: (images: ImageDelivery[]) => (delivered = images) };
    const vendor = visionVendorOf(driver.provider);
    try {
      const response = await generateWithRetry(driver, request, options.retry, retryOptions);
      const images = await delivery();
      trace.modelCalls += 1;
      trace.usage = addUsage(trace.usage, response.usage);
      const billing = billingOf(response);
      trace.billed = addBilledUsage(trace.billed ?? emptyBilledUsage(), response.usage, billing);
      budget.observe(response);
      trace.warnings.push(...fitted.warnings, ...response.warnings);
      safeEmit(deps.onEvent, {
        type: 'model_call',
        taskId: input.taskId,
        round,
        purpose,
        usage: response.usage,
        billing,
        ...(response.batch ? { batch: response.batch } : {}),
        latencyMs: response.latencyMs,
        attempts: response.attempts,
        text: response.text,
        toolCallCount: response.toolCalls.length,
        warnings: [...fitted.warnings, ...response.warnings],
        imagePayload: imagePayloadOf(images, vendor),
        images,
        request: response.raw?.request ?? null,
        response: response.raw?.response ?? null,
      });
      return response;
    } catch (error) {
      const attempts = error instanceof ProviderAttemptsError ? [...error.attempts] : [];
      const images = await delivery();
      safeEmit(deps.onEvent, {
        type: 'model_call',
        taskId: input.taskId,
        round,
        purpose,
        usage: emptyUsage(),
        latencyMs: 0,
        attempts,
        text: '',
        toolCallCount: 0,
        warnings: [],
        imagePayload: imagePayloadOf(images, vendor),
        images,
        request: null,
        response: null,
        error: { errorClass: error instanceof ProviderError ? error.errorClass : 'fatal', message: (error as Error).message },
      });
      throw new EpisodeFailure(error, trace);
    }
  };

  try {
    // `basic` never calls tools: its one request is the final answer.
    let finished = kind === 'basic';
    for (let round = 1; round <= options.maxStep && !finished; round += 1) {
      safeEmit(deps.onEvent, { type: 'round_start', taskId: input.taskId, round });
      let prepare = '';
      let roundTools = toDefinitions(offered);
      if (!options.mergePrepareWork) {
        const planned = await ask('prepare', round, prompts.prepareInstruction(round, options.maxStep, offered), []);
        prepare = prompts.stripThinking(planned.text);
        const chosen = prompts.selectedTools(prepare, offered);
        // Reference bug 1: unrecognised selections fell back to garbage; we fall back to ranking.
        roundTools = toDefinitions(chosen.length > 0 ? chosen : rankTools(`${input.question} ${prepare}`, host.tools, Math.max(options.topTools, 8)));
      }
      // Text mode sends no tools: the catalog is in the system prompt, the calls come back as text.
      const response =
        kind === 'react'
          ? await ask('work', round, prompts.reactRoundInstruction(round, options.maxStep, options.maxConcurrent), [])
          : await ask('work', round, prompts.roundInstruction(round, options.maxStep, options.maxConcurrent), roundTools);
      const text = prompts.stripThinking(response.text);
      const decision = decide(kind, response, text);
      if (decision.final !== undefined) {
        trace.finalReply = decision.final;
        trace.end = endOfReply(response, decision.final);
        if (trace.rounds.length > 0) trace.rounds[trace.rounds.length - 1]!.end = 'yes';
        finished = true;
        break;
      }
      const calls = await executeRound(decision.calls, {
        taskId: input.taskId,
        round,
        host,
        options,
        callContext: input.callContext,
        cwd: input.cwd,
        ...(deps.signal ? { signal: deps.signal } : {}),
        ...(deps.onEvent ? { onEvent: deps.onEvent } : {}),
        ...(deps.interceptor ? { interceptor: deps.interceptor } : {}),
      });
      decision.malformed.forEach((action, index) => {
        const recorded = malformedCall(action, `react-malformed-${round}-${index + 1}`);
        emitCallEnd(recorded, calls.length, { taskId: input.taskId, round, ...(deps.onEvent ? { onEvent: deps.onEvent } : {}) });
        calls.push(recorded);
      });
      if (kind === 'react') {
        history.push(
          { role: 'assistant', content: [{ type: 'text', text: text || '(empty reply)' }], toolCalls: [] },
          observationMessage(calls, options.toolResultMaxChars),
        );
      } else {
        const assistant: AssistantMessage = {
          role: 'assistant',
          content: text ? [{ type: 'text', text }] : [],
          toolCalls: response.toolCalls,
          ...(response.reasoning ? { reasoning: response.reasoning } : {}),
        };
        history.push(assistant, toolResultsMessage(calls, options.toolResultMaxChars));
      }
      const unparseable = calls.every((call) => call.call.argumentsError !== undefined);
      const roundTrace: RoundTrace = { round, prepare: prepare || text, calls, unparseable, end: 'no' };
      trace.rounds.push(roundTrace);
      const infrastructure = infrastructureFailure(calls);
      if (infrastructure) throw new EpisodeFailure(infrastructure, trace);
      if (!options.skipEndStage) {
        const verdict = await ask('end', round, prompts.endInstruction, []);
        roundTrace.end = prompts.parseEndVerdict(verdict.text);
        finished = roundTrace.end === 'yes';
      }
    }
    if (kind === 'basic') {
      const answer = await ask('work', 1, prompts.basicInstruction, []);
      trace.finalReply = prompts.stripThinking(answer.text);
      trace.end = endOfReply(answer, trace.finalReply);
    } else if (!trace.finalReply && (!trace.end || trace.end.status === 'empty')) {
      // A refusal, a pause or an overflow is the episode's end as the vendor reported it; only an
      // empty answer (or none after max_step rounds) gets the final-answer request.
      const final = await ask('final', options.maxStep + 1, prompts.finalInstruction, []);
      trace.finalReply = finalText(kind, prompts.stripThinking(final.text));
      trace.end = endOfReply(final, trace.finalReply);
    }
  } catch (error) {
    // A task limit forbade the next request: the episode ends here, without an answer, and is
    // scored as the model's result (the model used its budget).
    if (!(error instanceof LimitReached)) throw error;
    trace.finalReply = '';
    trace.end = error.end;
  }
  safeEmit(deps.onEvent, { type: 'final', taskId: input.taskId, text: trace.finalReply, rounds: trace.rounds.length });
  return trace;
}
