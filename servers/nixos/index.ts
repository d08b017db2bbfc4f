// The nixos MCP server (stdio): `node --import tsx servers/nixos/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { registerNixosTools } from './tools.js';
import { NIXOS_SERVER } from './upstreams.js';

try {
  const server = new McpServer({ name: 'mcp-nixos', version: '0.1.0' });
  registerNixosTools(server);
  await runStdioServer(server);
  process.stderr.write(`${NIXOS_SERVER} MCP server ready on stdio\n`);
} catch (error) {
  process.stderr.write(`${NIXOS_SERVER} MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
