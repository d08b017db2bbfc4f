// The yahoo-finance MCP server (stdio): `node --import tsx servers/yahoo-finance/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { runStdioServer } from '../shared/run-stdio.js';
import { createYahooFinanceServer } from './server.js';

try {
  await runStdioServer(createYahooFinanceServer());
  process.stderr.write('yahoo-finance MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`yahoo-finance MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
