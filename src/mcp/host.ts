// The MCP host: starts every configured server in parallel, builds one catalog of
// `server/tool` names (with provider-safe function names), routes calls and normalises results.
// A server that fails to start is reported in status() and the others keep working, unless
// the caller asks for `requireAll` (e.g. `m3 servers check`).
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerSpec } from '../config/servers.js';
import { readToolErrorMeta, unknownToolText } from '../core/tool-result-contract.js';
import { ServerError } from '../errors/index.js';
import { log, type Logger } from '../log/logger.js';
import { FunctionNameTable } from './function-names.js';
import { normalizeContent, toResultText, typeImagesByBytes } from './normalize-content.js';
import { defaultRestartPolicy, ServerConnection, type CallAttempt, type RestartPolicy } from './server-connection.js';
import { inspectSession, type ServerInspection } from './inspection.js';
import type { ConnectServer } from './server-session.js';
import { hashServerTools, hashToolSurface } from './tools-hash.js';
import { fullSurface, surfaceTools, type ToolSurface } from './tool-surface.js';
import type { CallToolOptions, CatalogTool, ServerStatus, ToolCallOutcome, ToolHost } from './types.js';

export interface HostOptions {
  /** Default per-call timeout in ms (from M3_TOOL_CALL_TIMEOUT); 0 disables. Default 60 s. */
  callTimeoutMs?: number;
  /** Default per-server startup timeout in ms (initialize + tools/list). Default 30 s. */
  startupTimeoutMs?: number;
  /** Fail (and close everything) if any server does not start. */
  requireAll?: boolean;
  /** One `<server>.stderr.log` per server is appended here; without it only the tail is kept. */
  logDir?: string;
  /** Where the child base variables (PATH, HOME, ...) are read from. Default process.env. */
  parentEnv?: Record<string, string | undefined>;
  /** Extra variables for every stdio server (below each server's own env). */
  sharedEnv?: Record<string, string>;
  restart?: Partial<RestartPolicy>;
  logger?: Logger;
  /**
   * Keep a JSON-RPC log of this many entries per server session (the demo's playground shows
   * it); 0 or unset keeps none, so benchmark runs pay nothing for it.
   */
  rpcLogEntries?: number;
  /** Which tools are offered (src/mcp/tool-surface.ts); default every tool the servers list. */
  toolSurface?: ToolSurface;
  /**
   * A transport for a server in place of its stdio child or HTTP connection (tests run servers
   * in process through it); undefined for a spec keeps the configured transport. Tool lists,
   * checked calls, timeouts, restarts and the rpc log take the same path either way.
   */
  connectServer?: ConnectServer;
}

const defaultCallTimeoutMs = 60_000;
const defaultStartupTimeoutMs = 30_000;

export class McpHost implements ToolHost {
  readonly tools: readonly CatalogTool[];
  private readonly byCanonical: Map<string, CatalogTool>;
  private readonly byFunction: Map<string, CatalogTool>;
  private readonly surfaceHash: string;
  /** Per server, the tools offered under the surface (the servers' own lists under `m3bench`). */
  private readonly offeredByServer: Map<string, Tool[]>;

  private constructor(
    private readonly connections: ServerConnection[],
    private readonly callTimeoutMs: number,
    readonly surface: ToolSurface = fullSurface,
    logger: Logger = log,
  ) {
    const ready = connections.filter((connection) => connection.state === 'ready');
    this.offeredByServer = new Map(
      ready.map((connection) => {
        const { offered, missing } = surfaceTools(surface, connection.spec.name, connection.tools);
        if (missing.length > 0)
          logger.warn(
            `tool surface ${surface.name}: server "${connection.spec.name}" does not list ${missing.length} catalog tool(s), not offered: ${missing.join(', ')}`,
          );
        return [connection.spec.name, offered];
      }),
    );
    const entries = ready.flatMap((connection) => (this.offeredByServer.get(connection.spec.name) ?? []).map((tool) => ({ connection, tool })));
    const names = new FunctionNameTable(entries.map(({ connection, tool }) => `${connection.spec.name}/${tool.name}`));
    this.tools = entries.map(({ connection, tool }) => {
      const canonicalName = `${connection.spec.name}/${tool.name}`;
      return {
        canonicalName,
        server: connection.spec.name,
        tool: tool.name,
        functionName: names.functionNameOf(canonicalName) ?? canonicalName,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema as Record<string, unknown>,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
      };
    });
    this.byCanonical = new Map(this.tools.map((tool) => [tool.canonicalName, tool]));
    this.byFunction = new Map(this.tools.map((tool) => [tool.functionName, tool]));
    this.surfaceHash = hashToolSurface(
      ready.map((connection) => ({ name: connection.spec.name, tools: this.offeredByServer.get(connection.spec.name) ?? [] })),
    );
  }

  /** Starts all servers in parallel and resolves once each is ready or has failed. */
  static async start(specs: readonly ServerSpec[], options: HostOptions = {}): Promise<McpHost> {
    const seen = new Set<string>();
    for (const spec of specs) {
      if (seen.has(spec.name)) throw new ServerError(spec.name, `server "${spec.name}" is configured twice`, { code: 'server_config' });
      seen.add(spec.name);
    }
    const connectionOptions = {
      startupTimeoutMs: options.startupTimeoutMs ?? defaultStartupTimeoutMs,
      callTimeoutMs: options.callTimeoutMs ?? defaultCallTimeoutMs,
      logDir: options.logDir,
      parentEnv: options.parentEnv ?? process.env,
      sharedEnv: options.sharedEnv ?? {},
      restart: { ...defaultRestartPolicy, ...options.restart },
      logger: options.logger ?? log,
      rpcLogEntries: options.rpcLogEntries ?? 0,
      connectServer: options.connectServer,
    };
    const connections = specs.map((spec) => new ServerConnection(spec, connectionOptions));
    await Promise.all(connections.map((connection) => connection.start()));
    const host = new McpHost(connections, connectionOptions.callTimeoutMs, options.toolSurface, connectionOptions.logger);
    const failed = connections.filter((connection) => connection.state === 'failed');
    for (const connection of failed) connectionOptions.logger.warn(connection.error ?? `server "${connection.spec.name}" failed`);
    if (options.requireAll && failed.length > 0) {
      await host.close();
      const names = failed.map((connection) => connection.spec.name).join(', ');
      throw new ServerError(failed[0]?.spec.name ?? '', `${failed.length} MCP server(s) failed to start: ${names}\n${failed.map((c) => c.error).join('\n')}`, {
        code: 'server_start',
      });
    }
    return host;
  }

  findByCanonical(name: string): CatalogTool | undefined {
    return this.byCanonical.get(name);
  }

  findByFunctionName(name: string): CatalogTool | undefined {
    return this.byFunction.get(name);
  }

  async callTool(canonicalName: string, args: Record<string, unknown>, options: CallToolOptions = {}): Promise<ToolCallOutcome> {
    const began = performance.now();
    const tool = this.byCanonical.get(canonicalName);
    const connection = tool && this.connections.find((candidate) => candidate.spec.name === tool.server);
    if (!tool || !connection) {
      const text = unknownToolText(canonicalName);
      return { canonicalName, content: [{ type: 'text', text }], isError: true, errorCode: 'unknown_tool', text, durationMs: 0 };
    }
    const attempt = await connection.call(tool.tool, args, options);
    return toOutcome(canonicalName, attempt, began);
  }

  /** The live session of `server` for the playground; undefined when it is not running. */
  inspect(server: string): ServerInspection | undefined {
    const connection = this.connections.find((candidate) => candidate.spec.name === server);
    const session = connection?.currentSession;
    if (!connection || !session) return undefined;
    return inspectSession(server, session, connection.spec.callTimeoutMs ?? this.callTimeoutMs);
  }

  /** Under a narrowed surface a server's count and hash are those of the tools it offers. */
  status(): ServerStatus[] {
    return this.connections.map((connection) => {
      const status = connection.status();
      const offered = this.offeredByServer.get(connection.spec.name);
      if (!this.surface.servers || !offered) return status;
      return { ...status, toolCount: offered.length, toolsHash: hashServerTools(offered) };
    });
  }

  toolsHash(): string {
    return this.surfaceHash;
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
  }
}

async function toOutcome(canonicalName: string, attempt: CallAttempt, began: number): Promise<ToolCallOutcome> {
  if (!attempt.ok) {
    const content = [{ type: 'text' as const, text: attempt.message }];
    const durationMs = Math.round(performance.now() - began);
    return { canonicalName, content, isError: true, errorCode: attempt.errorCode, text: toResultText({ content, isError: true }), durationMs };
  }
  const durationMs = Math.round(performance.now() - began);
  const content = await typeImagesByBytes(normalizeContent(attempt.result.content));
  const isError = attempt.result.isError === true;
  const structured = attempt.result.structuredContent;
  // Only an error result can carry an upstream failure (src/core/tool-result-contract.ts).
  const errorMeta = isError ? readToolErrorMeta(attempt.result._meta) : undefined;
  const outcome = { content, isError, ...(structured !== undefined ? { structuredContent: structured } : {}) };
  return { canonicalName, ...outcome, ...(errorMeta ? { errorCode: errorMeta.code, errorMeta } : {}), text: toResultText(outcome), durationMs };
}
