// The metmuseum-mcp MCP server (stdio): `node --import tsx servers/metmuseum/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioMain } from '../shared/run-stdio.js';
import { registerMetMuseumTools } from './tools.js';

function createMetMuseumServer(): McpServer {
  const server = new McpServer({ name: 'met-museum-mcp', version: '0.1.0' });
  registerMetMuseumTools(server);
  return server;
}

await runStdioMain('metmuseum-mcp', createMetMuseumServer);
