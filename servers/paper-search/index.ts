// The paper_search MCP server (stdio): `node --import tsx servers/paper-search/index.ts`.
// Our TypeScript re-implementation of the reference's paper-search-mcp (arXiv, PubMed, bioRxiv,
// medRxiv, Google Scholar, IACR ePrint, Semantic Scholar, CrossRef). Nothing but MCP goes to
// stdout; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { registerPaperSearchTools } from './tools.js';

try {
  const server = new McpServer({ name: 'paper_search_server', version: '0.1.0' });
  registerPaperSearchTools(server);
  await runStdioServer(server);
  process.stderr.write('paper_search MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`paper_search MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
