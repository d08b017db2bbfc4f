// One configured server over its whole life: first start, tool calls with timeouts, crash
// detection, restarts of a server that is alive but no longer answering (a ping after a tool
// timeout that gets no answer, or several timeouts in a row), and background restarts with
// exponential backoff. Calls never throw: every failure becomes a `CallAttempt` with an error
// code the host turns into a tool result.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ServerSpec } from '../config/servers.js';
import { backoffDelay } from '../core/retry-policy.js';
import { CALL_CONTEXT_META_KEY, type CallContext, type HostInfraErrorCode } from '../core/tool-result-contract.js';
import { errorMessage } from '../errors/index.js';
import type { Logger } from '../log/logger.js';
import { childSignal, onAbort, sleep } from './abort-helpers.js';
import { type ConnectServer, describeExit, ServerSession, type SessionEnd } from './server-session.js';
import { StderrLog } from './stderr-log.js';
import { dedupeTools, offeredTools } from './tool-list.js';
import { hashServerTools } from './tools-hash.js';
import type { ServerStatus } from './types.js';

export interface RestartPolicy {
  /** Restart attempts in a row before the server is given up (marked failed). */
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  /** How long a call waits for a restarting server before answering `server_unavailable`. */
  waitMs: number;
  /** A server that ran this long since its last (re)start gets a fresh attempt budget. */
  stableAfterMs: number;
  /** After a tool timeout the server is pinged; no answer within this bound means it is wedged. */
  pingTimeoutMs: number;
  /**
   * This many tool timeouts in a row also mean it is wedged: each of a call sent after the
   * previous timeout, with no answer of any kind in between (calls that were in flight together
   * and timed out together count once, so an overloaded server is not taken for a wedged one).
   */
  restartAfterTimeouts: number;
}

export const defaultRestartPolicy: RestartPolicy = {
  maxAttempts: 5,
  initialDelayMs: 250,
  maxDelayMs: 8000,
  waitMs: 15_000,
  stableAfterMs: 30_000,
  pingTimeoutMs: 20_000,
  restartAfterTimeouts: 3,
};

export interface ConnectionOptions {
  startupTimeoutMs: number;
  callTimeoutMs: number;
  logDir: string | undefined;
  parentEnv: Record<string, string | undefined>;
  sharedEnv: Record<string, string>;
  restart: RestartPolicy;
  logger: Logger;
  /** Entries of each session's JSON-RPC log; 0: no log. */
  rpcLogEntries: number;
  connectServer: ConnectServer | undefined;
}

export type CallAttempt = { ok: true; result: CallToolResult } | { ok: false; errorCode: HostInfraErrorCode; message: string };

/** setTimeout cannot wait longer than 2^31-1 ms; "no timeout" uses that. */
const maxTimerMs = 2_147_483_647;

export class ServerConnection {
  state: ServerStatus['state'] = 'starting';
  /** The tool list from the first successful start: the catalog the run uses. */
  tools: Tool[] = [];
  /** Tools the server lists but the host cannot call (task-augmented only), never offered. */
  withheldTools: string[] = [];
  toolsHash: string | undefined;
  startMs: number | undefined;
  error: string | undefined;
  restarts = 0;
  private session: ServerSession | undefined;
  private consecutiveRestarts = 0;
  private consecutiveTimeouts = 0;
  private lastTimeoutAt = 0;
  private restartCause = 'after a crash';
  /** A ping in flight after a tool timeout; calls wait for its verdict before they are sent. */
  private probing: Promise<void> | undefined;
  /** Sessions the host closed because they stopped answering, with the reason. */
  private readonly recycled = new WeakMap<ServerSession, string>();
  private readySince = 0;
  private restarting: Promise<void> | undefined;
  private closed = false;
  private readonly closing = new AbortController();
  readonly stderrLog: StderrLog;

  constructor(
    readonly spec: ServerSpec,
    private readonly options: ConnectionOptions,
  ) {
    this.stderrLog = new StderrLog(options.logDir, spec.name);
  }

  private get startupTimeoutMs(): number {
    return this.spec.startupTimeoutMs ?? this.options.startupTimeoutMs;
  }

  /** First start. Never throws: a failure is recorded in `state`/`error` for status(). */
  async start(): Promise<void> {
    const began = performance.now();
    try {
      const session = await this.openSession();
      const { offered, withheld } = offeredTools(dedupeTools(session.tools, this.spec.name, this.options.logger));
      this.tools = offered;
      this.withheldTools = withheld;
      if (withheld.length > 0) {
        this.options.logger.warn(
          `mcp server "${this.spec.name}": ${withheld.length} tool(s) not offered to models, because they only run as task-augmented calls, which the host does not make: ${withheld.join(', ')}`,
        );
      }
      this.toolsHash = hashServerTools(this.tools);
      this.state = 'ready';
    } catch (error) {
      this.state = 'failed';
      this.error = errorMessage(error);
    } finally {
      this.startMs = Math.round(performance.now() - began);
    }
  }

  private async openSession(): Promise<ServerSession> {
    const session = await ServerSession.open(this.spec, {
      startupTimeoutMs: this.startupTimeoutMs,
      parentEnv: this.options.parentEnv,
      sharedEnv: this.options.sharedEnv,
      stderrLog: this.stderrLog,
      signal: this.closing.signal,
      rpcLogEntries: this.options.rpcLogEntries,
      ...(this.options.connectServer ? { connectServer: this.options.connectServer } : {}),
    });
    if (this.closed) {
      await session.close();
      throw new Error(`server "${this.spec.name}" was closed while starting`);
    }
    this.session = session;
    this.readySince = Date.now();
    void session.ended.then((end) => this.onSessionEnded(session, end));
    return session;
  }

  private onSessionEnded(session: ServerSession, end: SessionEnd): void {
    if (end.intentional || this.closed || session !== this.session) return;
    this.options.logger.warn(`mcp server "${this.spec.name}" ${crashSummary(this.spec.name, end)}; restarting`);
    this.restartCause = 'after a crash';
    this.beginRestart(Promise.resolve());
  }

  /** Drops the current session and restarts in the background, once `before` is done. */
  private beginRestart(before: Promise<void>): void {
    this.session = undefined;
    this.consecutiveTimeouts = 0;
    this.lastTimeoutAt = 0;
    if (Date.now() - this.readySince >= this.options.restart.stableAfterMs) this.consecutiveRestarts = 0;
    this.state = 'restarting';
    this.restarting = before.then(() => this.restartLoop());
  }

  /** A tool timed out on `session`: is the server wedged (alive, not answering)? Then restart it. */
  private async onToolTimeout(session: ServerSession, sentAt: number): Promise<void> {
    if (session !== this.session || this.closed) return;
    const policy = this.options.restart;
    if (sentAt >= this.lastTimeoutAt) this.consecutiveTimeouts += 1;
    this.lastTimeoutAt = Date.now();
    if (this.consecutiveTimeouts >= policy.restartAfterTimeouts) {
      this.recycle(session, `${this.consecutiveTimeouts} tool calls in a row timed out`);
      return;
    }
    if (this.probing) return;
    this.probing = (async () => {
      try {
        await session.mcpClient.ping({ timeout: policy.pingTimeoutMs });
      } catch {
        // A session that dropped meanwhile crashed on its own; the crash path restarts it.
        if (session.connected) this.recycle(session, `no answer to a ping within ${policy.pingTimeoutMs} ms after a tool timeout`);
      }
    })().finally(() => {
      this.probing = undefined;
    });
    await this.probing;
  }

  private recycle(session: ServerSession, reason: string): void {
    if (session !== this.session || this.closed) return;
    this.options.logger.warn(`mcp server "${this.spec.name}" is running but not answering (${reason}); restarting it`);
    this.stderrLog.note(`restarted by the host: ${reason}`);
    this.recycled.set(session, reason);
    this.restartCause = 'because it stopped answering';
    this.beginRestart(session.close());
  }

  private async restartLoop(): Promise<void> {
    const policy = this.options.restart;
    while (!this.closed) {
      if (this.consecutiveRestarts >= policy.maxAttempts) {
        this.state = 'failed';
        this.error = `server "${this.spec.name}" gave up after ${policy.maxAttempts} restart attempts in a row; last error: ${this.error ?? 'crashed'}`;
        this.options.logger.error(this.error);
        return;
      }
      await sleep(
        backoffDelay({ baseDelayMs: policy.initialDelayMs, maxDelayMs: policy.maxDelayMs }, this.consecutiveRestarts + 1) ?? policy.maxDelayMs,
        this.closing.signal,
      );
      if (this.closed) return;
      this.consecutiveRestarts += 1;
      this.restarts += 1;
      try {
        const session = await this.openSession();
        if (hashServerTools(offeredTools(session.tools).offered) !== this.toolsHash) {
          this.options.logger.warn(`mcp server "${this.spec.name}" lists different tools after its restart; the catalog keeps the first list`);
        }
        this.state = 'ready';
        this.error = undefined;
        return;
      } catch (error) {
        this.error = errorMessage(error);
      }
    }
  }

  /** The live session (for the playground's resources, prompts and JSON-RPC log), if any. */
  get currentSession(): ServerSession | undefined {
    return this.state === 'ready' && this.session?.connected ? this.session : undefined;
  }

  /** Waits (bounded) for a restart in progress; returns the live session or undefined. */
  private async liveSession(waitMs: number, signal: AbortSignal | undefined): Promise<ServerSession | undefined> {
    // Dropped but not yet processed (stderr still draining): let onSessionEnded switch to restarting.
    const current = this.session;
    if (current && !current.connected) await current.ended;
    // A server being probed after a timeout may be wedged: do not send it more work until it answers.
    if (this.probing) await this.probing;
    if (this.state === 'restarting' && this.restarting) {
      let dispose: () => void = () => {};
      const aborted = new Promise<void>((resolve) => {
        dispose = onAbort(signal, resolve);
      });
      await Promise.race([this.restarting, sleep(waitMs, signal), aborted]);
      dispose();
    }
    return this.state === 'ready' ? this.session : undefined;
  }

  async call(tool: string, args: Record<string, unknown>, options: { signal?: AbortSignal; timeoutMs?: number; context?: CallContext }): Promise<CallAttempt> {
    // A server's configured callTimeoutSec is the most specific setting (a slow OCR server), so it
    // wins over the per-call value, which callers usually fill from M3_TOOL_CALL_TIMEOUT.
    const timeoutMs = this.spec.callTimeoutMs ?? options.timeoutMs ?? this.options.callTimeoutMs;
    const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : Number.POSITIVE_INFINITY;
    const session = await this.liveSession(Math.min(this.options.restart.waitMs, Math.max(0, deadline - Date.now())), options.signal);
    if (options.signal?.aborted) return { ok: false, errorCode: 'aborted', message: `call to ${this.spec.name}/${tool} was aborted` };
    if (!session) return { ok: false, errorCode: 'server_unavailable', message: this.unavailableMessage() };
    const remaining = Math.min(maxTimerMs, Math.max(1, deadline - Date.now()));
    const perCall = childSignal(options.signal);
    const sentAt = Date.now();
    try {
      const meta = options.context ? { _meta: { [CALL_CONTEXT_META_KEY]: { ...options.context } } } : {};
      const result = (await session.mcpClient.callTool({ name: tool, arguments: args, ...meta }, undefined, {
        timeout: remaining,
        ...(perCall.signal ? { signal: perCall.signal } : {}),
      })) as CallToolResult;
      if (session === this.session) this.consecutiveTimeouts = 0;
      return { ok: true, result };
    } catch (error) {
      const attempt = await this.classifyFailure(error, session, tool, timeoutMs, options.signal);
      if (!attempt.ok && attempt.errorCode === 'tool_timeout') void this.onToolTimeout(session, sentAt);
      else if (session === this.session) this.consecutiveTimeouts = 0;
      return attempt;
    } finally {
      perCall.dispose();
    }
  }

  private async classifyFailure(
    error: unknown,
    session: ServerSession,
    tool: string,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<CallAttempt> {
    const name = `${this.spec.name}/${tool}`;
    if (signal?.aborted) return { ok: false, errorCode: 'aborted', message: `call to ${name} was aborted` };
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return { ok: false, errorCode: 'tool_timeout', message: `${name} did not answer within ${timeoutMs} ms (timeout; the request was cancelled)` };
    }
    // Any failure on a transport that is gone is the transport's, whatever error surfaced first.
    const closed = (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) || !session.connected;
    const recycled = this.recycled.get(session);
    if (closed && recycled !== undefined)
      return { ok: false, errorCode: 'server_unavailable', message: `${name}: the server stopped answering and was restarted (${recycled})` };
    if (closed && this.spec.transport === 'stdio') {
      const end = await session.ended;
      if (end.intentional) return { ok: false, errorCode: 'server_unavailable', message: `${name}: the server was closed while the call was running` };
      return { ok: false, errorCode: 'server_crashed', message: `${crashSummary(this.spec.name, end)} during ${name}${this.stderrLog.tailText()}` };
    }
    if (closed) return { ok: false, errorCode: 'server_unavailable', message: `${name}: the connection to the server was lost: ${errorMessage(error)}` };
    if (error instanceof McpError) return { ok: false, errorCode: 'protocol_error', message: `${name}: ${error.message}` };
    return { ok: false, errorCode: 'server_unavailable', message: `${name}: server unreachable: ${errorMessage(error)}` };
  }

  private unavailableMessage(): string {
    if (this.state === 'restarting')
      return `server "${this.spec.name}" is restarting ${this.restartCause} and was not ready in time (restart ${this.restarts})`;
    if (this.state === 'stopped') return `server "${this.spec.name}" is stopped (the host was closed)`;
    return `server "${this.spec.name}" is unavailable: ${this.error ?? 'not started'}`;
  }

  status(): ServerStatus {
    return {
      name: this.spec.name,
      transport: this.spec.transport,
      state: this.state,
      toolCount: this.tools.length,
      ...(this.startMs !== undefined ? { startMs: this.startMs } : {}),
      ...(this.error !== undefined ? { error: this.error } : {}),
      restarts: this.restarts,
      ...(this.toolsHash !== undefined ? { toolsHash: this.toolsHash } : {}),
      ...(this.withheldTools.length > 0 ? { withheldTools: [...this.withheldTools] } : {}),
      ...(this.session?.pid !== undefined ? { pid: this.session.pid } : {}),
      ...(this.stderrLog.file !== undefined ? { logFile: this.stderrLog.file } : {}),
      stderrTail: this.stderrLog.tail(),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    // A restart in flight may be spawning a child right now; wait for it so none outlives close().
    await this.restarting;
    const session = this.session;
    this.session = undefined;
    if (session) await session.close();
    if (this.state !== 'failed') this.state = 'stopped';
    await this.stderrLog.close();
  }
}

function crashSummary(server: string, end: SessionEnd): string {
  return `server "${server}" exited unexpectedly (${describeExit(end)})`;
}
