// The recorded tool-result contract: the codes a tool call can end with, which of them are
// infrastructure (never the model's fault), and the two `_meta` channels between the host and
// our own servers. Servers, the host, the fallback layer and the evaluators all read this file;
// nothing else defines these strings.
//
// `_meta` channels (both optional; third-party servers ignore the request one and never send
// the result one, so everything still works with them):
//   request  params._meta[CALL_CONTEXT_META_KEY] = { taskId, runId?, workspace, workspaceOnly? }
//            which task a call belongs to and the folder its outputs and downloads go to, so
//            servers can keep per-task state and confine files per task. `workspaceOnly: true`
//            (the demo's sessions) narrows the call's file arguments to the workspace alone:
//            no fallback to the shared media folder, which holds the other sessions' files.
//   result   result._meta[TOOL_ERROR_META_KEY] = { code, status?, retryAfterSec?, upstream? }
//            set by our servers on `isError` results whose cause is not the model's arguments
//            (an upstream web API down, rate-limited, refusing the key, a missing key).
//   result   result._meta[TOOL_PATHS_META_KEY] = [{ given, file }]
//            set by our servers when a file argument of a call with a context was mapped into
//            the task's workspace: the path as given and the file used, relative to the
//            workspace. Informational (the host does not act on it); the arguments stay as sent.

/** Put in front of every error result shown to the model and recorded in predictions. */
export const TOOL_ERROR_PREFIX = '[Tool error] ';
/** The text of an unknown-tool refusal, after the prefix. */
export const UNKNOWN_TOOL_TEXT = 'Unknown tool:';
/** Shown when a result carries no text at all. */
export const NO_TEXTUAL_CONTENT = '[no textual content]';

/** The text of an error result: the prefix, then the message. */
export function toolErrorText(message: string): string {
  return `${TOOL_ERROR_PREFIX}${message}`;
}

/** The text of an unknown-tool refusal, as recorded. */
export function unknownToolText(name: string, note = ''): string {
  return toolErrorText(`${UNKNOWN_TOOL_TEXT} ${name}${note}`);
}

/** True for a recorded result written as an error result (the prefix, trailing space optional). */
export function isToolErrorText(text: string): boolean {
  return text.startsWith(TOOL_ERROR_PREFIX.trimEnd());
}

/** True for a recorded unknown-tool refusal (leading blanks and case tolerated, as older files vary). */
export function isUnknownToolText(text: string): boolean {
  return /^\s*\[Tool error\]\s*Unknown tool\b/i.test(text);
}

/**
 * Prediction files: every failed call carries its code under PREDICTION_ERROR_CODE_FIELD (an
 * extra field the reference's tools ignore), and a record written that way says so with
 * PREDICTION_CODED_FIELD = true, so a call without a code in such a record is known to have
 * succeeded. Records without the marker (the reference's, older ones) are read from their text.
 */
export const PREDICTION_ERROR_CODE_FIELD = 'error_code';
export const PREDICTION_CODED_FIELD = 'call_error_codes';

/**
 * The tool fallback layer (src/fallback/) serves a call whose real attempt failed for an
 * infrastructure reason from one of these tiers, tried in this order after the real call.
 * A served call is an ordinary (mocked) result: no error code, `isError` false; the original
 * failure is kept beside it as `FallbackServed`.
 */
export const FALLBACK_TIERS = ['fixture', 'cache', 'simulator', 'template'] as const;
export type FallbackTier = (typeof FALLBACK_TIERS)[number];

export interface FallbackServed {
  tier: FallbackTier;
  /** The infrastructure code the real call failed with. */
  originalErrorCode: ToolErrorCode;
}

/**
 * Prediction files: a served call carries `{tier, original_error_code}` under this field (an
 * extra field the reference's tools ignore); calls the layer did not serve have no such field.
 */
export const PREDICTION_FALLBACK_FIELD = 'fallback';

export const CALL_CONTEXT_META_KEY = 'm3bench/context';
export const TOOL_ERROR_META_KEY = 'm3bench/error';
export const TOOL_PATHS_META_KEY = 'm3bench/paths';

/**
 * Refusals caused by what the model sent; recorded and scored, never retried or mocked.
 * `tool_error` is a server's own error result (`isError`) without an infrastructure code.
 */
const MODEL_ERROR_CODES = ['unknown_tool', 'invalid_arguments', 'over_limit', 'tool_error'] as const;

/** The host could not get an answer from the server process. */
const HOST_INFRA_ERROR_CODES = ['tool_timeout', 'server_crashed', 'server_unavailable', 'protocol_error', 'aborted'] as const;

/**
 * A server of ours reached its upstream web API and it failed (reported through TOOL_ERROR_META_KEY).
 * @internal Exported for its tests.
 */
export const UPSTREAM_ERROR_CODES = [
  'upstream_network',
  'upstream_timeout',
  'upstream_rate_limited',
  'upstream_auth',
  'upstream_server_error',
  'upstream_bad_response',
  'missing_credentials',
] as const;

/**
 * Errors a robustness condition (src/robustness/) put in place of a real answer: an injected
 * infrastructure-shaped fault, or a call to a distractor tool. The model sees an ordinary error;
 * they are never infrastructure failures of the run (they are the condition) and are counted apart.
 */
const CONDITION_ERROR_CODES = ['injected_fault', 'distractor'] as const;

type ModelErrorCode = (typeof MODEL_ERROR_CODES)[number];
type ConditionErrorCode = (typeof CONDITION_ERROR_CODES)[number];
export type HostInfraErrorCode = (typeof HOST_INFRA_ERROR_CODES)[number];
export type UpstreamErrorCode = (typeof UPSTREAM_ERROR_CODES)[number];
export type ToolErrorCode = ModelErrorCode | HostInfraErrorCode | UpstreamErrorCode | ConditionErrorCode;

/**
 * What a robustness condition did to one call, recorded beside it (prediction field
 * PREDICTION_CONDITION_FIELD, the store's tool_calls.condition_mark) and never present in a run
 * without the condition: `distractor` (a call to a planted tool), `injected_fault` (the call never
 * reached its server), `injection` (the real result with planted instructions carrying a canary).
 */
export interface ConditionMark {
  kind: 'distractor' | 'injected_fault' | 'injection';
  /** The fault kind, the distractor's kind and the tool it imitates, or the injection style. */
  detail: string;
  /** Injections: the canary whose later appearance proves the model followed the instruction. */
  canary?: string;
  /** Injections: where the instruction was planted. */
  channel?: 'text' | 'image';
  /** Injections of the forbidden-tool style: the tool the instruction asks for. */
  forbiddenTool?: string;
}

export const PREDICTION_CONDITION_FIELD = 'condition_mark';

const infraCodes: ReadonlySet<string> = new Set<string>([...HOST_INFRA_ERROR_CODES, ...UPSTREAM_ERROR_CODES]);

/** True for codes that say the infrastructure failed, not the model. */
export function isInfrastructureErrorCode(code: string | undefined): boolean {
  return code !== undefined && infraCodes.has(code);
}

function isUpstreamErrorCode(code: unknown): code is UpstreamErrorCode {
  return typeof code === 'string' && (UPSTREAM_ERROR_CODES as readonly string[]).includes(code);
}

/** What a server puts under `result._meta[TOOL_ERROR_META_KEY]`. */
export interface ToolErrorMeta {
  code: UpstreamErrorCode;
  /** HTTP status the upstream answered with, when there was one. */
  status?: number;
  retryAfterSec?: number;
  /** Host name of the upstream (never a URL with a key in it). */
  upstream?: string;
}

/** One entry of `result._meta[TOOL_PATHS_META_KEY]`: a file argument and where it went. */
export interface MappedPathMeta {
  /** The argument as the caller wrote it. */
  given: string;
  /** The file used, relative to the task's workspace (never an absolute machine path). */
  file: string;
}

/** What the host puts under `params._meta[CALL_CONTEXT_META_KEY]`. */
export interface CallContext {
  taskId: string;
  runId?: string;
  /** Absolute path of the folder this task's outputs go to. */
  workspace: string;
  /** True: every file the call reads or writes must be inside `workspace` (no shared media folder). */
  workspaceOnly?: boolean;
}

/** Reads the error meta of a result, if a server of ours set a valid one. */
export function readToolErrorMeta(meta: unknown): ToolErrorMeta | undefined {
  if (!meta || typeof meta !== 'object') return undefined;
  const value = (meta as Record<string, unknown>)[TOOL_ERROR_META_KEY];
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if (!isUpstreamErrorCode(record.code)) return undefined;
  return {
    code: record.code,
    ...(typeof record.status === 'number' ? { status: record.status } : {}),
    ...(typeof record.retryAfterSec === 'number' ? { retryAfterSec: record.retryAfterSec } : {}),
    ...(typeof record.upstream === 'string' ? { upstream: record.upstream } : {}),
  };
}

/** Reads the call context of a request's `_meta`, if the host sent a valid one. */
export function readCallContext(meta: unknown): CallContext | undefined {
  if (!meta || typeof meta !== 'object') return undefined;
  const value = (meta as Record<string, unknown>)[CALL_CONTEXT_META_KEY];
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.taskId !== 'string' || typeof record.workspace !== 'string' || record.workspace === '') return undefined;
  return {
    taskId: record.taskId,
    workspace: record.workspace,
    ...(typeof record.runId === 'string' ? { runId: record.runId } : {}),
    ...(record.workspaceOnly === true ? { workspaceOnly: true } : {}),
  };
}
