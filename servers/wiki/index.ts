// The wiki MCP server (stdio): `node --import tsx servers/wiki/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { runStdioMain } from '../shared/run-stdio.js';
import { createWikiServer } from './server.js';

await runStdioMain('wiki', createWikiServer);
