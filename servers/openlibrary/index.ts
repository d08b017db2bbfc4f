// The openlibrary_mcp MCP server (stdio): `node --import tsx servers/openlibrary/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioMain } from '../shared/run-stdio.js';
import { registerOpenLibraryTools } from './tools.js';

function createOpenLibraryServer(): McpServer {
  const server = new McpServer({ name: 'openlibrary', version: '0.1.0' });
  registerOpenLibraryTools(server);
  return server;
}

await runStdioMain('openlibrary_mcp', createOpenLibraryServer);
