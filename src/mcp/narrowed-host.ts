// A view of a running host that shows only some of its servers: an MCP-Universe task's
// `mcp_servers` (src/tasks/universe-task.ts) narrows the tool surface of that one task. The
// episode offers only these tools, and a call to any other tool resolves to nothing, so it is
// refused as `unknown_tool` by the checked call (src/mcp/checked-call.ts) exactly like a name
// the model invented. Servers keep running for the other tasks of the run.
import { hostView } from './host-view.js';
import type { ToolHost } from './types.js';

export function narrowHost(host: ToolHost, servers: readonly string[]): ToolHost {
  const allowed = new Set(servers);
  const tools = host.tools.filter((tool) => allowed.has(tool.server));
  const visible = <T extends { server: string } | undefined>(tool: T): T | undefined => (tool && allowed.has(tool.server) ? tool : undefined);
  return hostView(host, {
    tools,
    findByCanonical: (name) => visible(host.findByCanonical(name)),
    findByFunctionName: (name) => visible(host.findByFunctionName(name)),
    status: () => host.status().filter((server) => allowed.has(server.name)),
  });
}
