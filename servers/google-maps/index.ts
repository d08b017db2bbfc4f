// The google-maps MCP server (stdio): `node --import tsx servers/google-maps/index.ts`.
// The 19 tools of the reference's google_maps_mcp.py over Google Maps Platform web services.
// GOOGLE_MAPS_API_KEY is read at call time: without it the server starts, lists its tools and
// answers each call with a typed missing_credentials error. Only MCP goes to stdout.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { registerGoogleMapsTools } from './tools.js';

try {
  const server = new McpServer({ name: 'google-maps', version: '0.1.0' });
  registerGoogleMapsTools(server);
  await runStdioServer(server);
  process.stderr.write('google-maps MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`google-maps MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
