// The hugeicons-mcp MCP server (stdio): `node --import tsx servers/hugeicons/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { runStdioServer } from '../shared/run-stdio.js';
import { createHugeiconsServer } from './server.js';

try {
  await runStdioServer(createHugeiconsServer());
  process.stderr.write('hugeicons-mcp MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`hugeicons-mcp MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
