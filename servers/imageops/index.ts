// The image-editing MCP server (registered as "imagesorcery-mcp", the reference's name).
// Tools read images by path inside the allowed roots (see servers/shared/allowed-roots.ts),
// write their result as a new file and answer with JSON {images: [path], width, height, ...}
// plus a PNG preview. stdout carries MCP only; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { registerImageOpsTools } from './tools.js';

function createImageOpsServer(): McpServer {
  const server = new McpServer({ name: 'imagesorcery-mcp', version: '0.1.0' });
  registerImageOpsTools(server);
  return server;
}

runStdioServer(createImageOpsServer()).catch((error: unknown) => {
  process.stderr.write(`imagesorcery-mcp: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
