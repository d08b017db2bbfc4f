// The Reddit-MCP-Server MCP server (stdio): `node --import tsx servers/reddit/index.ts`.
// search_hot_posts and get_post_content over Reddit's OAuth API. REDDIT_CLIENT_ID,
// REDDIT_CLIENT_SECRET and REDDIT_REFRESH_TOKEN are read at call time: without them the server
// starts and lists its tools, and calls fail with missing_credentials naming what is unset.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { registerRedditTools } from './tools.js';

try {
  const server = new McpServer({ name: 'reddit', version: '0.1.0' });
  registerRedditTools(server);
  await runStdioServer(server);
  process.stderr.write('Reddit MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`Reddit MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
