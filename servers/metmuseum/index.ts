// The metmuseum-mcp MCP server (stdio): `node --import tsx servers/metmuseum/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { runStdioMain } from '../shared/run-stdio.js';
import { createMetMuseumServer } from './server.js';

await runStdioMain('metmuseum-mcp', createMetMuseumServer);
