// One live connection to one MCP server: spawn (stdio) or connect (Streamable HTTP), initialize,
// list every tool page, and report how the connection ended. Lifecycle policy (restarts,
// call routing) lives in server-connection.ts; this file only knows a single attempt.
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerSpec } from '../config/servers.js';
import { ServerError, errorMessage } from '../errors/index.js';
import { onAbort, sleep } from './abort-helpers.js';
import { createChildEnv } from './child-env.js';
import { LoggingTransport } from './logging-transport.js';
import { collectPages } from './pages.js';
import { RpcLog } from './rpc-log.js';
import type { StderrLog } from './stderr-log.js';

export interface SessionOptions {
  startupTimeoutMs: number;
  parentEnv: Record<string, string | undefined>;
  sharedEnv?: Record<string, string>;
  stderrLog: StderrLog;
  /** Aborts a start in progress (the host is closing). */
  signal?: AbortSignal;
  /** Keep a JSON-RPC log of this many entries (src/mcp/rpc-log.ts); unset or 0: no log. */
  rpcLogEntries?: number;
  /** A transport in place of the configured one (see `ConnectServer`). */
  connectServer?: ConnectServer;
}

/**
 * Gives a session a ready-made transport for `spec` (a test's in-process server over the SDK's
 * in-memory transport) instead of spawning or dialling it; undefined keeps the configured
 * transport. Called once per session, so a restart asks for a fresh one; the startup timeout
 * covers it.
 */
export type ConnectServer = (spec: ServerSpec) => Transport | undefined | Promise<Transport | undefined>;

export interface SessionEnd {
  /** True when close() was called by us; false for a crash or a dropped connection. */
  intentional: boolean;
  exitCode: number | null;
  signal: string | null;
}

/** Upper bound on waiting for a dead child's last stderr lines before reporting. */
const stderrDrainMs = 250;

function describeCommand(spec: ServerSpec): string {
  return spec.transport === 'http' ? String(spec.url) : [spec.command, ...(spec.launchArgs ?? spec.args)].join(' ');
}

export function describeExit(end: Pick<SessionEnd, 'exitCode' | 'signal'>): string {
  if (end.signal) return `killed by ${end.signal}`;
  if (end.exitCode !== null) return `exit code ${end.exitCode}`;
  return 'exit status unknown';
}

/** The injected transport for `spec`, if any; one that arrives after `deadline` rejected is closed. */
async function injectTransport(spec: ServerSpec, connectServer: ConnectServer | undefined, deadline: Promise<never>): Promise<Transport | undefined> {
  if (!connectServer) return undefined;
  const pending = Promise.resolve(connectServer(spec));
  try {
    return await Promise.race([pending, deadline]);
  } catch (error) {
    void pending.then(
      (late) => late?.close(),
      () => undefined,
    );
    throw error;
  }
}

export class ServerSession {
  tools: Tool[] = [];
  pid: number | undefined;
  /** Resolves once, when the connection is gone (and the child's stderr has drained). */
  readonly ended: Promise<SessionEnd>;
  private resolveEnded!: (end: SessionEnd) => void;
  private closing = false;
  private disconnected = false;
  private finishing: Promise<void> | undefined;
  private exit: { code: number | null; signal: string | null } | undefined;
  private stderrDone: Promise<void> = Promise.resolve();
  private readonly client = new Client({ name: 'm3bench', version: '0.1.0' }, { capabilities: {} });
  private readonly transport: Transport;
  /** Every JSON-RPC message of this session, when the host keeps a log. */
  readonly rpcLog: RpcLog | undefined;

  private constructor(
    readonly spec: ServerSpec,
    private readonly options: SessionOptions,
    injected: Transport | undefined,
  ) {
    this.ended = new Promise((resolve) => {
      this.resolveEnded = resolve;
    });
    if (injected) options.stderrLog.note(`connected through an injected transport in place of ${describeCommand(spec)}`);
    const transport = injected ?? (spec.transport === 'http' ? this.createHttpTransport() : this.createStdioTransport());
    this.rpcLog = options.rpcLogEntries ? new RpcLog(options.rpcLogEntries) : undefined;
    this.transport = this.rpcLog ? new LoggingTransport(transport, this.rpcLog) : transport;
    this.client.onclose = () => {
      this.disconnected = true;
      void this.finish();
    };
  }

  /** False from the moment the connection drops, before `ended` settles (stderr drain). */
  get connected(): boolean {
    return !this.disconnected;
  }

  /** Starts one attempt; throws a ServerError (with stderr tail) if it is not ready in time. */
  static async open(spec: ServerSpec, options: SessionOptions): Promise<ServerSession> {
    let timer: NodeJS.Timeout | undefined;
    let dispose: () => void = () => {};
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer to initialize/tools/list within ${options.startupTimeoutMs} ms`)), options.startupTimeoutMs);
      dispose = onAbort(options.signal, () => reject(new Error('start cancelled: the host is closing')));
    });
    // Rejections of the race's loser would otherwise be unhandled.
    timedOut.catch(() => undefined);
    let injected: Transport | undefined;
    try {
      injected = await injectTransport(spec, options.connectServer, timedOut);
    } catch (error) {
      clearTimeout(timer);
      dispose();
      throw new ServerError(spec.name, `server "${spec.name}" failed to start: ${errorMessage(error)}`, { cause: error, code: 'server_start' });
    }
    const session = new ServerSession(spec, options, injected);
    try {
      await Promise.race([session.connect(), timedOut]);
      return session;
    } catch (error) {
      await session.close();
      throw session.startError(error);
    } finally {
      clearTimeout(timer);
      dispose();
    }
  }

  private createStdioTransport(): Transport {
    const spec = this.spec;
    if (!spec.command) throw new ServerError(spec.name, `server "${spec.name}": no command configured`);
    const transport = new StdioClientTransport({
      command: spec.command,
      args: spec.launchArgs ?? spec.args,
      env: createChildEnv({ parentEnv: this.options.parentEnv, sharedEnv: this.options.sharedEnv ?? {}, serverEnv: spec.env }),
      cwd: spec.cwd,
      stderr: 'pipe',
    });
    // With stderr: 'pipe' this is a PassThrough available before start, so no early line is lost.
    if (transport.stderr) this.stderrDone = this.options.stderrLog.attach(transport.stderr as Readable);
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      this.pid = transport.pid ?? undefined;
      this.options.stderrLog.note(`started pid ${this.pid ?? '?'}: ${describeCommand(spec)}`);
      // The SDK does not expose the exit status; its child handle is private. Read it when
      // present so crash reports can say "exit code 3" / "killed by SIGKILL", else say unknown.
      const child = (transport as unknown as { _process?: ChildProcess })._process;
      child?.once('exit', (code, signal) => {
        this.exit = { code, signal };
      });
    };
    return transport;
  }

  private createHttpTransport(): Transport {
    const spec = this.spec;
    if (!spec.url) throw new ServerError(spec.name, `server "${spec.name}": no url configured`);
    return new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers } });
  }

  private async connect(): Promise<void> {
    // The SDK's own request timeout (60 s) would otherwise cut a start short of startupTimeoutMs
    // when many servers start at once on a busy machine.
    const bound = { timeout: this.options.startupTimeoutMs };
    await this.client.connect(this.transport, bound);
    this.tools = await this.listAllTools(bound);
  }

  /** `tools/list` following `nextCursor` (the reference read only the first page). */
  private async listAllTools(bound: { timeout: number }): Promise<Tool[]> {
    const tools = await collectPages('tools/list', async (cursor) => {
      const result = await this.client.listTools(cursor === undefined ? undefined : { cursor }, bound);
      return { items: result.tools, nextCursor: result.nextCursor };
    });
    // listTools() caches output-schema validators for the last page only; give it every page.
    const cacheable = this.client as unknown as { cacheToolMetadata?: (all: Tool[]) => void };
    cacheable.cacheToolMetadata?.(tools);
    return tools;
  }

  get mcpClient(): Client {
    return this.client;
  }

  /** Runs once per session, from the SDK's onclose (crash) or from close() (intentional). */
  private finish(): Promise<void> {
    this.finishing ??= (async () => {
      const intentional = this.closing;
      await Promise.race([this.stderrDone, sleep(stderrDrainMs)]);
      const end = { intentional, exitCode: this.exit?.code ?? null, signal: this.exit?.signal ?? null };
      this.options.stderrLog.note(intentional ? 'closed' : `connection lost (${describeExit(end)})`);
      this.resolveEnded(end);
    })();
    return this.finishing;
  }

  private startError(error: unknown): ServerError {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    let reason = errorMessage(error);
    if (code === 'ENOENT') reason = `command "${this.spec.command}" not found (ENOENT); check servers.${this.spec.name}.command in the server configuration`;
    else if (code === 'EACCES') reason = `command "${this.spec.command}" is not executable (EACCES)`;
    else if (this.exit) reason = `${reason} (process ${describeExit({ exitCode: this.exit.code, signal: this.exit.signal })})`;
    return new ServerError(
      this.spec.name,
      `server "${this.spec.name}" failed to start: ${reason}\n  command: ${describeCommand(this.spec)}${this.options.stderrLog.tailText()}`,
      { cause: error, code: 'server_start' },
    );
  }

  /** Closes the client and the child (stdin end, then SIGTERM, then SIGKILL inside the SDK). */
  async close(): Promise<void> {
    this.closing = true;
    try {
      await this.client.close();
    } catch {
      // Closing an already-dead connection may throw; the child is gone either way.
    }
    try {
      await this.transport.close();
    } catch {
      // Same: nothing left to close.
    }
    // A spawn that failed (ENOENT) never fires onclose; make sure `ended` still settles.
    await this.finish();
  }
}
