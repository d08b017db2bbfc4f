// The car-price MCP server (stdio): `node --import tsx servers/car-price/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { runStdioMain } from '../shared/run-stdio.js';
import { createCarPriceServer } from './server.js';

await runStdioMain('car-price', createCarPriceServer);
