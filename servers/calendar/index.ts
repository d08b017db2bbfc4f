// The mock calendar MCP server (registered as "calendar"), MCP-RADAR's calendar domain: one SQLite
// calendar per task workspace (servers/shared/task-database.ts), seeded from the file
// M3_RADAR_SEEDS names (servers/shared/radar-seed.ts). stdout carries MCP only.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioMain } from '../shared/run-stdio.js';
import { registerCalendarTools } from './tools.js';

function createCalendarServer(): McpServer {
  const server = new McpServer({ name: 'calendar', version: '0.1.0' });
  registerCalendarTools(server);
  return server;
}

void runStdioMain('calendar', createCalendarServer);
