// Every tool of the image-editing MCP server, registered in one place (the stdio entry index.ts
// and the in-process tests both call registerImageOpsTools). The tools live in tools-*.ts and
// server-info.ts.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerServerInfo } from './server-info.js';
import { registerBlurTool } from './tools-blur.js';
import { registerDrawTools } from './tools-draw.js';
import { registerTransformTools } from './tools-transform.js';

export function registerImageOpsTools(server: McpServer): void {
  registerTransformTools(server);
  registerBlurTool(server);
  registerDrawTools(server);
  registerServerInfo(server);
}
