// mcp-yolo: a local, offline stand-in for the reference cloud detector (dinox-mcp), running
// YOLOX-Nano on onnxruntime-node. Speaks MCP on stdout; diagnostics go to stderr only.
// Model: M3_YOLO_MODEL, else the pulled asset media/assets/models/yolox_nano.onnx (`m3 assets pull`).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { disableImageCache } from './session-options.js';
import { registerYoloTools } from './tools.js';

disableImageCache();

const server = new McpServer({ name: 'mcp-yolo', version: '0.1.0' });
registerYoloTools(server);

runStdioServer(server).catch((error: unknown) => {
  process.stderr.write(`mcp-yolo: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
