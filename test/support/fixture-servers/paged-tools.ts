// Fixture MCP server "paged" (its stdio entry is paged.ts; tests also run it in process through
// in-process.ts): a low-level server whose tools/list answers in pages of `pageSize` tools with
// `nextCursor`, which the reference host ignored (only page 1 seen).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';

/** PAGED_TOOL_COUNT tools (default 25) in pages of PAGED_PAGE_SIZE (default 10), read from `env`. */
export function createPagedFixture(env: Record<string, string | undefined>): Server {
  const toolCount = Number(env.PAGED_TOOL_COUNT ?? '25');
  const pageSize = Number(env.PAGED_PAGE_SIZE ?? '10');
  const tools: Tool[] = Array.from({ length: toolCount }, (_unused, index) => ({
    name: `tool_${String(index).padStart(3, '0')}`,
    description: `Paged fixture tool number ${index}.`,
    inputSchema: { type: 'object', properties: { value: { type: 'number' } } },
  }));

  const server = new Server({ name: 'paged-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const offset = request.params?.cursor === undefined ? 0 : Number(request.params.cursor);
    if (!Number.isInteger(offset) || offset < 0 || offset > tools.length) throw new McpError(ErrorCode.InvalidParams, `bad cursor ${request.params?.cursor}`);
    const next = offset + pageSize;
    return { tools: tools.slice(offset, next), ...(next < tools.length ? { nextCursor: String(next) } : {}) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: `called ${request.params.name}` }],
  }));
  return server;
}
