// Entry point of the `pyzbar-mcp` MCP server (stdio). Diagnostics go to stderr: stdout carries MCP only.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { prepareDecoder } from './decode.js';
import { registerBarcodeTools } from './tools.js';

function createBarcodeServer(): McpServer {
  const server = new McpServer({ name: 'pyzbar-mcp', version: '0.1.0' });
  registerBarcodeTools(server);
  return server;
}

try {
  await runStdioServer(createBarcodeServer());
  // Compile the reader's WebAssembly while the host lists tools; a failure is reported again by
  // the first scan, so here it is only logged.
  prepareDecoder().catch((error: unknown) => {
    process.stderr.write(`pyzbar-mcp: decoder preload failed: ${(error as Error).message}\n`);
  });
} catch (error) {
  process.stderr.write(`pyzbar-mcp: failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
}
