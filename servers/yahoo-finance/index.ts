// The yahoo-finance MCP server (stdio): `node --import tsx servers/yahoo-finance/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioMain } from '../shared/run-stdio.js';
import { registerYahooFinanceTools } from './tools.js';

function createYahooFinanceServer(): McpServer {
  const server = new McpServer({ name: 'yfinance', version: '0.1.0' });
  registerYahooFinanceTools(server);
  return server;
}

await runStdioMain('yahoo-finance', createYahooFinanceServer);
