// The google-air MCP server (stdio): `node --import tsx servers/google-air/index.ts`.
// current_conditions, forecast, history and heatmap_tile over the Air Quality API v1. The key
// (GOOGLE_MAPS_API_KEY, as the reference, else GOOGLE_API_KEY) is read at call time: without it
// the server starts and lists its tools, and calls fail with missing_credentials.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { registerGoogleAirTools } from './tools.js';

try {
  const server = new McpServer({ name: 'air-quality', version: '0.1.0' });
  registerGoogleAirTools(server);
  await runStdioServer(server);
  process.stderr.write('google-air MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`google-air MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
