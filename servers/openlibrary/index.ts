// The openlibrary_mcp MCP server (stdio): `node --import tsx servers/openlibrary/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { runStdioMain } from '../shared/run-stdio.js';
import { createOpenLibraryServer } from './server.js';

await runStdioMain('openlibrary_mcp', createOpenLibraryServer);
