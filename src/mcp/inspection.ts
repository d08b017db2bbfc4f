// What the demo's playground shows of a server beyond its tools, as MCP Inspector does: the
// capabilities it declared, its resources (list, read) and prompts (list, get), and the session's
// JSON-RPC log. A server that did not declare `resources` or `prompts` is asked nothing: the
// answer says so (`declared: false`) instead of sending a request it would refuse.
import type { GetPromptResult, Prompt, ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import { collectPages } from './pages.js';
import type { RpcLog } from './rpc-log.js';
import type { ServerSession } from './server-session.js';

export interface ServerInspection {
  server: string;
  capabilities: { tools: boolean; resources: boolean; prompts: boolean };
  /** The live session's log; undefined when the host keeps none. */
  rpcLog: RpcLog | undefined;
  listResources(): Promise<Resource[]>;
  /** `meta` goes out as the request's `_meta` (the caller's call context, so the RPC log knows whose read it is). */
  readResource(uri: string, meta?: Record<string, unknown>): Promise<ReadResourceResult>;
  listPrompts(): Promise<Prompt[]>;
  getPrompt(name: string, args: Record<string, string>, meta?: Record<string, unknown>): Promise<GetPromptResult>;
}

export function inspectSession(server: string, session: ServerSession, timeoutMs: number): ServerInspection {
  const client = session.mcpClient;
  const declared = client.getServerCapabilities() ?? {};
  const bound = timeoutMs > 0 ? { timeout: timeoutMs } : {};
  const capabilities = { tools: Boolean(declared.tools), resources: Boolean(declared.resources), prompts: Boolean(declared.prompts) };
  const page = (cursor: string | undefined) => (cursor === undefined ? undefined : { cursor });
  return {
    server,
    capabilities,
    rpcLog: session.rpcLog,
    listResources: async () =>
      capabilities.resources
        ? collectPages('resources/list', async (cursor) => {
            const result = await client.listResources(page(cursor), bound);
            return { items: result.resources, nextCursor: result.nextCursor };
          })
        : [],
    readResource: (uri, meta) => client.readResource({ uri, ...(meta ? { _meta: meta } : {}) }, bound),
    listPrompts: async () =>
      capabilities.prompts
        ? collectPages('prompts/list', async (cursor) => {
            const result = await client.listPrompts(page(cursor), bound);
            return { items: result.prompts, nextCursor: result.nextCursor };
          })
        : [],
    getPrompt: (name, args, meta) => client.getPrompt({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }, bound),
  };
}
