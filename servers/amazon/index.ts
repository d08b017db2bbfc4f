// The amazon MCP server (stdio): `node --import tsx servers/amazon/index.ts`.
// search_products and get_product over the Rainforest API. RAINFOREST_API_KEY is read at call
// time: without it the server starts and lists its tools, and calls fail with missing_credentials.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { registerAmazonTools } from './tools.js';

try {
  const server = new McpServer({ name: 'amazon', version: '0.1.0' });
  registerAmazonTools(server);
  await runStdioServer(server);
  process.stderr.write('amazon MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`amazon MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
