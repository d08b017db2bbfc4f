// The page lets a person choose which servers' tools the model may use. A view of the shared
// host offers only those tools and treats every other name as unknown, so a model cannot call
// a tool it was not offered; calls still go through the one shared host. Views are cached per
// server set, which also keeps the argument checker's compiled schemas (keyed by host) warm.
import { unknownToolText } from '../core/tool-result-contract.js';
import type { CallToolOptions, CatalogTool, ServerStatus, ToolCallOutcome, ToolHost } from '../mcp/types.js';

class ToolView implements ToolHost {
  readonly tools: readonly CatalogTool[];
  readonly surface: ToolHost['surface'];
  private readonly allowed: Set<string>;

  constructor(
    private readonly host: ToolHost,
    servers: ReadonlySet<string>,
  ) {
    this.tools = host.tools.filter((tool) => servers.has(tool.server));
    this.surface = host.surface;
    this.allowed = new Set(this.tools.map((tool) => tool.canonicalName));
  }

  findByCanonical(name: string): CatalogTool | undefined {
    return this.allowed.has(name) ? this.host.findByCanonical(name) : undefined;
  }

  findByFunctionName(name: string): CatalogTool | undefined {
    const tool = this.host.findByFunctionName(name);
    return tool && this.allowed.has(tool.canonicalName) ? tool : undefined;
  }

  callTool(canonicalName: string, args: Record<string, unknown>, options?: CallToolOptions): Promise<ToolCallOutcome> {
    if (!this.allowed.has(canonicalName)) {
      const text = unknownToolText(canonicalName, ' (its server is not enabled for this conversation)');
      return Promise.resolve({ canonicalName, content: [{ type: 'text', text }], isError: true, errorCode: 'unknown_tool', text, durationMs: 0 });
    }
    return this.host.callTool(canonicalName, args, options);
  }

  status(): ServerStatus[] {
    return this.host.status();
  }

  toolsHash(): string {
    return this.host.toolsHash();
  }

  close(): Promise<void> {
    // The shared host belongs to the demo server, not to one conversation.
    return Promise.resolve();
  }
}

export class ToolViews {
  private readonly views = new Map<string, ToolHost>();

  constructor(private readonly host: ToolHost) {}

  /** All tools when `servers` is undefined; otherwise only those of the named servers. */
  viewFor(servers: readonly string[] | undefined): ToolHost {
    if (servers === undefined) return this.host;
    const key = [...new Set(servers)].sort().join('\n');
    let view = this.views.get(key);
    if (!view) {
      view = new ToolView(this.host, new Set(servers));
      this.views.set(key, view);
    }
    return view;
  }
}
