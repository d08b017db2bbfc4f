// The okx MCP server (stdio): `node --import tsx servers/okx/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioMain } from '../shared/run-stdio.js';
import { registerOkxTools } from './tools.js';

function createOkxServer(): McpServer {
  const server = new McpServer({ name: 'okx-mcp-server', version: '0.1.0' });
  registerOkxTools(server);
  return server;
}

await runStdioMain('okx', createOkxServer);
