// Fixture MCP server "paged": a low-level server whose tools/list answers in pages of
// PAGED_PAGE_SIZE tools with `nextCursor`, which the reference host ignored (only page 1 seen).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError, ErrorCode, type Tool } from '@modelcontextprotocol/sdk/types.js';

const toolCount = Number(process.env.PAGED_TOOL_COUNT ?? '25');
const pageSize = Number(process.env.PAGED_PAGE_SIZE ?? '10');

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

await server.connect(new StdioServerTransport());
process.stdin.on('end', () => {
  void server.close().finally(() => process.exit(0));
});
