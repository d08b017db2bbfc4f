// The car-price MCP server (stdio): `node --import tsx servers/car-price/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioMain } from '../shared/run-stdio.js';
import { registerCarPriceTools } from './tools.js';

function createCarPriceServer(): McpServer {
  const server = new McpServer({ name: 'car-price-mcp', version: '0.1.0' });
  registerCarPriceTools(server);
  return server;
}

await runStdioMain('car-price', createCarPriceServer);
