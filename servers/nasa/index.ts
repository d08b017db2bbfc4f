// The nasa-mcp MCP server (stdio): `node --import tsx servers/nasa/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { NASA_SERVER } from './nasa-api.js';
import { registerNasaTools } from './tools.js';

try {
  const server = new McpServer({ name: NASA_SERVER, version: '0.1.0' });
  registerNasaTools(server);
  await runStdioServer(server);
  process.stderr.write('nasa-mcp MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`nasa-mcp MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
