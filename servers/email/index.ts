// The mock email MCP server (registered as "email"), MCP-RADAR's email domain: one SQLite
// mailbox per task workspace (servers/shared/task-database.ts), seeded from the file
// M3_RADAR_SEEDS names (servers/shared/radar-seed.ts). stdout carries MCP only.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioMain } from '../shared/run-stdio.js';
import { registerEmailTools } from './tools.js';

function createEmailServer(): McpServer {
  const server = new McpServer({ name: 'email', version: '0.1.0' });
  registerEmailTools(server);
  return server;
}

void runStdioMain('email', createEmailServer);
