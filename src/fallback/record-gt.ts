// `m3 fixtures record` (the reference's tools/record_fixtures.py): call tools with their ground
// truth arguments while the upstream APIs still work and store the successful returns in the
// record-replay cache, so later runs replay them when the APIs fail. The GT file is only read.
// Calls go one at a time per server with a delay between them (rate-limit friendly); a server
// whose credentials are missing is skipped with a note naming the variable.
import { splitCanonical } from '../core/canonical-name.js';
import { toArgumentObject } from '../mcp/argument-check.js';
import { callCheckedTool } from '../mcp/checked-call.js';
import type { ToolHost } from '../mcp/types.js';
import type { GtTask } from '../tasks/schemas.js';
import { argumentsKey } from './argument-key.js';
import type { FallbackInterceptor } from './tiers.js';
import { sleep } from '../core/sleep.js';
import { clip } from '../core/number-format.js';

export interface PlannedCall {
  tool: string;
  arguments: Record<string, unknown>;
  /** GT tasks that make this call. */
  taskIds: string[];
}

/**
 * Servers that answer without a key but are useless for recording without one: NASA's shared
 * DEMO_KEY is rate-limited to a few calls (as the reference's recorder notes).
 */
const recordingCredentials: Readonly<Record<string, readonly string[]>> = { 'nasa-mcp': ['NASA_API_KEY'] };

/** Unique (tool, arguments) per server, in ground-truth order; `servers` limits the plan. */
export function planGtCalls(tasks: readonly GtTask[], servers?: readonly string[]): Map<string, PlannedCall[]> {
  const plan = new Map<string, PlannedCall[]>();
  const seen = new Map<string, PlannedCall>();
  for (const task of tasks) {
    for (const step of task.steps) {
      for (const call of step.calls) {
        const name = typeof call.name === 'string' ? call.name : '';
        const parts = splitCanonical(name);
        if (!parts) continue;
        const { server, tool } = parts;
        if (servers && servers.length > 0 && !servers.includes(server)) continue;
        const normalized = toArgumentObject(call.arguments);
        const args = 'args' in normalized ? normalized.args : {};
        const key = `${name} ${argumentsKey(args)}`;
        const known = seen.get(key);
        if (known) {
          if (!known.taskIds.includes(task.id)) known.taskIds.push(task.id);
          continue;
        }
        const planned: PlannedCall = { tool, arguments: args, taskIds: [task.id] };
        seen.set(key, planned);
        plan.set(server, [...(plan.get(server) ?? []), planned]);
      }
    }
  }
  return plan;
}

export interface RecordOptions {
  host: ToolHost;
  /** A record-only fallback interceptor (M3_MOCK_RECORD on) whose cache receives the returns. */
  recorder: FallbackInterceptor;
  /** Milliseconds between calls to one server. */
  delayMs: number;
  /** Calls per server; 0 = all. */
  limit: number;
  /** Folder the calls may write to (their call context). */
  workspace: string;
  timeoutMs?: number;
  /** Where each server's credentials are looked up (its configured env). */
  serverEnv: (server: string) => Record<string, string> | undefined;
  onLine: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
}

export interface ServerRecording {
  server: string;
  recorded: number;
  failed: number;
  skipped?: string;
}

// Cut first, then flattened: the printed line keeps the length it always had.
const oneLine = (text: string, length: number) => clip(text, length, { markerInLimit: true }).replace(/\s+/g, ' ');

/** Why a server cannot be recorded now, or undefined. */
function skipReason(server: string, options: RecordOptions): string | undefined {
  if (!options.host.tools.some((tool) => tool.server === server)) return 'not running (missing from mcp_servers.json, disabled, or it failed to start)';
  const env = options.serverEnv(server) ?? {};
  const unset = (recordingCredentials[server] ?? []).filter((name) => !env[name]?.trim());
  if (unset.length > 0) return `no ${unset.join(', ')}: set it in the environment or .env and record again`;
  return undefined;
}

export async function recordServer(server: string, calls: readonly PlannedCall[], options: RecordOptions): Promise<ServerRecording> {
  const summary: ServerRecording = { server, recorded: 0, failed: 0 };
  const skipped = skipReason(server, options);
  if (skipped) return { ...summary, skipped };
  const planned = options.limit > 0 ? calls.slice(0, options.limit) : calls;
  const context = { taskId: `record/${server}`, workspace: options.workspace };
  for (const [index, call] of planned.entries()) {
    if (index > 0) await (options.sleep ?? sleep)(options.delayMs);
    const outcome = await callCheckedTool(options.host, `${server}/${call.tool}`, call.arguments, {
      context,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    const shown = `${server}/${call.tool} ${JSON.stringify(call.arguments)}`;
    if (outcome.errorCode === 'missing_credentials') {
      summary.failed += 1;
      return { ...summary, skipped: `missing credentials: ${oneLine(outcome.text, 240)}` };
    }
    const verdict = outcome.tool
      ? options.recorder.recordReal({ tool: outcome.tool, arguments: call.arguments, context, outcome })
      : { recorded: false as const, reason: outcome.text };
    if (verdict.recorded) {
      summary.recorded += 1;
      options.onLine(`    [OK]   ${shown} -> ${oneLine(outcome.text, 80)} (${verdict.outcome})`);
    } else {
      summary.failed += 1;
      options.onLine(`    [SKIP] ${shown} -> ${oneLine(outcome.isError ? outcome.text : verdict.reason, 120)}`);
    }
  }
  return summary;
}
