// The local detector, served under the ground truth's key `dinox-mcp` (mcp_servers.json): an
// offline stand-in for the reference's cloud detector (DINO-X) with its tool names and arguments,
// running YOLOX-Nano on onnxruntime-node. It reports the same name in its MCP identity, so the
// config key, the tool names models see and the recorded calls all say `dinox-mcp`; the title and
// every answer's model line say what really runs. Speaks MCP on stdout; diagnostics go to stderr.
// Model: M3_YOLO_MODEL, else the pulled asset media/assets/models/yolox_nano.onnx (`m3 assets pull`).
// detect-human-pose-keypoints is listed only when a pose model is present at start
// (M3_YOLO_POSE_MODEL, else the asset of media/vision-models.json; pose-model.ts): without
// one it is absent rather than a tool that always fails, as for every tool we cannot serve.
// detect-objects-by-text is open-vocabulary when YOLO-World and the CLIP text encoder are present
// (world-model.ts), else COCO-80.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { disableImageCache } from './session-options.js';
import { registerYoloTools } from './tools.js';

disableImageCache();

const server = new McpServer({ name: 'dinox-mcp', title: 'Local YOLOX-Nano detector (COCO-80) with the DINO-X tool names', version: '0.1.0' });

function start(): Promise<void> {
  registerYoloTools(server);
  return runStdioServer(server);
}

Promise.resolve()
  .then(start)
  .catch((error: unknown) => {
    process.stderr.write(`dinox-mcp (servers/yolo): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
