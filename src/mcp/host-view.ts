// A view of a tool host with some members replaced: an MCP-Universe task's narrowed host
// (narrowed-host.ts) and every robustness condition (src/robustness/) wrap the host one task sees
// this way. The host is usually a class instance, so its methods are bound here, not
// spread (a spread copies no prototype methods).
import type { ToolHost } from './types.js';

export function hostView(
  host: ToolHost,
  overrides: Partial<Pick<ToolHost, 'tools' | 'findByCanonical' | 'findByFunctionName' | 'callTool' | 'status'>>,
): ToolHost {
  return {
    tools: overrides.tools ?? host.tools,
    findByCanonical: overrides.findByCanonical ?? ((name) => host.findByCanonical(name)),
    findByFunctionName: overrides.findByFunctionName ?? ((name) => host.findByFunctionName(name)),
    callTool: overrides.callTool ?? ((name, args, options) => host.callTool(name, args, options)),
    status: overrides.status ?? (() => host.status()),
    toolsHash: () => host.toolsHash(),
    ...(host.surface ? { surface: host.surface } : {}),
    ...(host.inspect ? { inspect: (server: string) => host.inspect?.(server) } : {}),
    // The task's view owns nothing: the run closes the real host.
    close: async () => undefined,
  };
}
