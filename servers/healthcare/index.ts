// The healthcare-mcp server (stdio): `node --import tsx servers/healthcare/index.ts`.
// Our TypeScript re-implementation of the reference's healthcare-mcp-public server (openFDA,
// NCBI E-utilities, medRxiv, ClinicalTrials.gov, NLM Clinical Tables, MyHealthfinder, and local
// calculators). Nothing but MCP goes to stdout; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { registerHealthcareTools } from './tools.js';

try {
  const server = new McpServer({ name: 'healthcare-mcp', version: '0.1.0' });
  registerHealthcareTools(server);
  await runStdioServer(server);
  process.stderr.write('healthcare-mcp MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`healthcare-mcp MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
