// The linkimage-mcp MCP server (stdio): `node --import tsx servers/linkimage/index.ts`.
// fetch_unsplash_image over the Unsplash API. UNSPLASH_ACCESS_KEY is read at call time (the
// reference's hard-coded default key is not carried over): without it the server starts and
// lists its tool, and calls fail with missing_credentials.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { registerLinkImageTools } from './tools.js';

try {
  const server = new McpServer({ name: 'unsplash_image_fetcher', version: '0.1.0' });
  registerLinkImageTools(server);
  await runStdioServer(server);
  process.stderr.write('linkimage MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`linkimage MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
