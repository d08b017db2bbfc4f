// The wiki MCP server (stdio): `node --import tsx servers/wiki/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { runStdioServer } from '../shared/run-stdio.js';
import { createWikiServer } from './server.js';

try {
  await runStdioServer(createWikiServer());
  process.stderr.write('wiki MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`wiki MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
