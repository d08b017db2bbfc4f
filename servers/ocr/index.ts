// Entry point of the `ocr` MCP server (stdio). Diagnostics go to stderr: stdout carries MCP only.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { warmEngine } from './engine.js';
import { registerOcrTools } from './tools.js';

function createOcrServer(): McpServer {
  const server = new McpServer({ name: 'ocr', version: '0.1.0' });
  registerOcrTools(server);
  return server;
}

try {
  await runStdioServer(createOcrServer());
  // Load the models while the host is still listing tools; a failure here is reported again
  // (with its cause) by the first perform_ocr call, so it is only logged.
  warmEngine().catch((error: unknown) => {
    process.stderr.write(`ocr: model preload failed: ${(error as Error).message}\n`);
  });
} catch (error) {
  process.stderr.write(`ocr: failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
}
