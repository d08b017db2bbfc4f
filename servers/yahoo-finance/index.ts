// The yahoo-finance MCP server (stdio): `node --import tsx servers/yahoo-finance/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { runStdioMain } from '../shared/run-stdio.js';
import { createYahooFinanceServer } from './server.js';

await runStdioMain('yahoo-finance', createYahooFinanceServer);
