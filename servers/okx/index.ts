// The okx MCP server (stdio): `node --import tsx servers/okx/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { runStdioServer } from '../shared/run-stdio.js';
import { createOkxServer } from './server.js';

try {
  await runStdioServer(createOkxServer());
  process.stderr.write('okx MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`okx MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
