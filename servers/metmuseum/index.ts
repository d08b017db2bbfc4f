// The metmuseum-mcp MCP server (stdio): `node --import tsx servers/metmuseum/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { runStdioServer } from '../shared/run-stdio.js';
import { createMetMuseumServer } from './server.js';

try {
  await runStdioServer(createMetMuseumServer());
  process.stderr.write('metmuseum-mcp MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`metmuseum-mcp MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
