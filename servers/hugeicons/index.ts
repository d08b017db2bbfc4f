// The hugeicons-mcp MCP server (stdio): `node --import tsx servers/hugeicons/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioMain } from '../shared/run-stdio.js';
import { registerHugeiconsTools } from './tools.js';

function createHugeiconsServer(): McpServer {
  const server = new McpServer({ name: 'hugeicons-mcp', version: '0.1.0' });
  registerHugeiconsTools(server);
  return server;
}

await runStdioMain('hugeicons-mcp', createHugeiconsServer);
