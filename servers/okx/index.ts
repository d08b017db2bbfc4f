// The okx MCP server (stdio): `node --import tsx servers/okx/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { runStdioMain } from '../shared/run-stdio.js';
import { createOkxServer } from './server.js';

await runStdioMain('okx', createOkxServer);
