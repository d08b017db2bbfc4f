// The wiki MCP server (stdio): `node --import tsx servers/wiki/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioMain } from '../shared/run-stdio.js';
import { registerWikiTools } from './tools.js';

function createWikiServer(): McpServer {
  const server = new McpServer({ name: 'wiki', version: '0.1.0' });
  registerWikiTools(server);
  return server;
}

await runStdioMain('wiki', createWikiServer);
