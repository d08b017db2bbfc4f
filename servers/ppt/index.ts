// The PowerPoint MCP server (registered as "ppt"). Presentations are built in memory (see
// model.ts) and written as .pptx by save_presentation; images come from paths inside the
// allowed roots. stdout carries MCP only; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { registerPptTools } from './tools.js';

function createPptServer(): McpServer {
  const server = new McpServer({ name: 'ppt', version: '0.1.0' });
  registerPptTools(server);
  return server;
}

runStdioServer(createPptServer()).catch((error: unknown) => {
  process.stderr.write(`ppt: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
