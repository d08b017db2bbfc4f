// The openlibrary_mcp MCP server (stdio): `node --import tsx servers/openlibrary/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { runStdioServer } from '../shared/run-stdio.js';
import { createOpenLibraryServer } from './server.js';

try {
  await runStdioServer(createOpenLibraryServer());
  process.stderr.write('openlibrary_mcp MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`openlibrary_mcp MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
