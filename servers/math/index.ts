// The math MCP server (stdio): `node --import tsx servers/math/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { registerMathTools } from './tools.js';

try {
  const server = new McpServer({ name: 'math', version: '0.1.0' });
  registerMathTools(server);
  await runStdioServer(server);
  process.stderr.write('math MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`math MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
