// The weather MCP server (stdio): `node --import tsx servers/weather/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioMain } from '../shared/run-stdio.js';
import { registerWeatherTools } from './tools.js';

function createWeatherServer(): McpServer {
  const server = new McpServer({ name: 'weather', version: '0.1.0' });
  registerWeatherTools(server);
  return server;
}

await runStdioMain('weather', createWeatherServer);
