// The nationalparks MCP server (stdio): `node --import tsx servers/nationalparks/index.ts`.
// Six tools over the US National Park Service API v1. NPS_API_KEY is read at call time: without
// it the server starts and lists its tools, and calls fail with missing_credentials.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { registerNationalParksTools } from './tools.js';

try {
  const server = new McpServer({ name: 'nationalparks-mcp-server', version: '1.0.0' });
  registerNationalParksTools(server);
  await runStdioServer(server);
  process.stderr.write('National Parks MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`National Parks MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
