// What the rest of the harness sees of the MCP host: a catalog of tools under canonical
// `server/tool` names, and a call that always resolves to a normalised result.
import type { ServerInspection } from './inspection.js';
import type { ToolSurface } from './tool-surface.js';
import type { CallContext, ConditionMark, FallbackServed, ToolErrorCode, ToolErrorMeta } from '../core/tool-result-contract.js';

export interface CatalogTool {
  /** `server/tool`, the name the ground truth and predictions use. */
  canonicalName: string;
  server: string;
  tool: string;
  /** Provider-safe function name: `[A-Za-z0-9_-]{1,64}`, unique within the catalog. */
  functionName: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The tool's declared output schema, when its server lists one (the fallback simulator validates against it). */
  outputSchema?: Record<string, unknown>;
}

/** One MCP content item after normalisation. Images keep their base64 payload. */
export type NormalizedContent =
  | { type: 'text'; text: string }
  /** `mimeType` as the bytes show it; `claimedMimeType` is the server's label when that differs. */
  | { type: 'image'; data: string; mimeType: string; claimedMimeType?: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; blob?: string }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string };

export interface ToolCallOutcome {
  canonicalName: string;
  content: NormalizedContent[];
  structuredContent?: unknown;
  /** True when the server flagged the result as an error, or the call failed on our side. */
  isError: boolean;
  /**
   * Set when the call never produced a server result (unknown tool, refused arguments, timeout,
   * crash), or when a server of ours flagged an error result as an upstream failure (the code
   * from `_meta`, see src/core/tool-result-contract.ts). Unset for a server's plain `isError`.
   */
  errorCode?: ToolErrorCode;
  /** The upstream-failure details our server sent with the error (status, retry-after, host). */
  errorMeta?: ToolErrorMeta;
  /** Reference-style result text (see `toResultText`). */
  text: string;
  durationMs: number;
  /** Set when the tool fallback layer served this result in place of a failed real call. */
  fallback?: FallbackServed;
  /** Set when a robustness condition (src/robustness/) changed or answered this call. */
  condition?: ConditionMark;
}

export interface CallToolOptions {
  signal?: AbortSignal;
  /** Overrides the host default (M3_TOOL_CALL_TIMEOUT); 0 disables. A server's configured `callTimeoutSec` wins over both. */
  timeoutMs?: number;
  /** Sent as the request's `_meta[CALL_CONTEXT_META_KEY]`: which task the call belongs to and its workspace. */
  context?: CallContext;
}

export interface ServerStatus {
  name: string;
  transport: 'stdio' | 'http';
  state: 'starting' | 'ready' | 'failed' | 'restarting' | 'stopped';
  toolCount: number;
  startMs?: number;
  error?: string;
  restarts: number;
  /** sha256 of the server's sorted tool list (names, descriptions, schemas). */
  toolsHash?: string;
  /** Tools the server lists that are not offered: they require task-augmented calls. */
  withheldTools?: string[];
  /** Process id of the live stdio child, if any. */
  pid?: number;
  /** Where the server's stderr is appended (when the host was given a log directory). */
  logFile?: string;
  /** The last stderr lines (redacted), oldest first. */
  stderrTail?: string[];
}

export interface ToolHost {
  readonly tools: readonly CatalogTool[];
  findByCanonical(name: string): CatalogTool | undefined;
  findByFunctionName(name: string): CatalogTool | undefined;
  callTool(canonicalName: string, args: Record<string, unknown>, options?: CallToolOptions): Promise<ToolCallOutcome>;
  status(): ServerStatus[];
  /** sha256 over every server's tool list: which tool surface a run saw. */
  toolsHash(): string;
  /** The named surface the tools were offered under (src/mcp/tool-surface.ts); absent means `m3bench`. */
  readonly surface?: ToolSurface;
  /** A running server's resources, prompts and JSON-RPC log (the MCP host has them; wrappers need not). */
  inspect?(server: string): ServerInspection | undefined;
  close(): Promise<void>;
}
