// The hugeicons-mcp MCP server (stdio): `node --import tsx servers/hugeicons/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { runStdioMain } from '../shared/run-stdio.js';
import { createHugeiconsServer } from './server.js';

await runStdioMain('hugeicons-mcp', createHugeiconsServer);
