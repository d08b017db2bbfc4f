// Fixture MCP server "tasks": lists a tool whose `execution.taskSupport` is "required" (it only
// runs as a task-augmented call and answers a plain call with -32600), one where it is
// "optional", and a plain tool. Written on the low-level Server so the tool list is exact.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'tasks-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
const empty = { type: 'object' as const, properties: {} };

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: 'plain', description: 'Answers a plain call.', inputSchema: empty },
    { name: 'background_job', description: 'Runs only as a task.', inputSchema: empty, execution: { taskSupport: 'required' } },
    { name: 'maybe_task', description: 'Runs plain or as a task.', inputSchema: empty, execution: { taskSupport: 'optional' } },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === 'background_job') throw new McpError(ErrorCode.InvalidRequest, 'background_job requires task augmentation');
  return { content: [{ type: 'text', text: `${request.params.name} ran` }] };
});

await server.connect(new StdioServerTransport());
process.stdin.on('end', () => {
  void server.close().finally(() => process.exit(0));
});
