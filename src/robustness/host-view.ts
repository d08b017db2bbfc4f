// A view of a tool host with some members replaced: every robustness condition wraps the host one
// task sees this way. The host is usually a class instance, so its methods are bound here, not
// spread (a spread copies no prototype methods).
import type { ToolHost } from '../mcp/types.js';

export function hostView(host: ToolHost, overrides: Partial<Pick<ToolHost, 'tools' | 'findByCanonical' | 'findByFunctionName' | 'callTool'>>): ToolHost {
  return {
    tools: overrides.tools ?? host.tools,
    findByCanonical: overrides.findByCanonical ?? ((name) => host.findByCanonical(name)),
    findByFunctionName: overrides.findByFunctionName ?? ((name) => host.findByFunctionName(name)),
    callTool: overrides.callTool ?? ((name, args, options) => host.callTool(name, args, options)),
    status: () => host.status(),
    toolsHash: () => host.toolsHash(),
    ...(host.surface ? { surface: host.surface } : {}),
    ...(host.inspect ? { inspect: (server: string) => host.inspect?.(server) } : {}),
    // The task's view owns nothing: the run closes the real host.
    close: async () => undefined,
  };
}
