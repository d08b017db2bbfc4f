// The tmdb MCP server (stdio): `node --import tsx servers/tmdb/index.ts`.
// search_movies over TMDB v3. TMDB_ACCESS_TOKEN (or TMDB_API_KEY) is read at call time: without
// it the server starts and lists its tool, and calls fail with missing_credentials.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { registerTmdbTools } from './tools.js';

try {
  const server = new McpServer({ name: 'tmdb-server', version: '0.1.0' });
  registerTmdbTools(server);
  await runStdioServer(server);
  process.stderr.write('TMDB MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`TMDB MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
