// The car-price MCP server (stdio): `node --import tsx servers/car-price/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { runStdioServer } from '../shared/run-stdio.js';
import { createCarPriceServer } from './server.js';

try {
  await runStdioServer(createCarPriceServer());
  process.stderr.write('car-price MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`car-price MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
