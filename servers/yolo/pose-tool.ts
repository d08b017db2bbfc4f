// detect-human-pose-keypoints {imageFileUri, includeDescription}, answered in the layout of the
// reference's cloud detector (DINO-X-MCP stdio-server.ts): "<n> human(s) detected in image.",
// "Detailed human pose keypoints detection results: " + [{name, bbox: {xmin, ymin, xmax, ymax},
// pose: {nose: {x, y, visible}, ...17 COCO keypoints}, description?}] (1 decimal, as its
// parseBbox/parsePoseKeypoints), the reference's note, and a line of our own naming the model
// that ran. A keypoint is "visible" when the model's visibility score is at least 0.5 (the
// threshold Ultralytics draws keypoints with), else "not visible" (the reference's two states).
// Registered only when a pose model is present (index.ts).
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { loadImageInput } from '../shared/image-input.js';
import { resolveInputArgument } from '../shared/task-paths.js';
import { guarded } from '../shared/tool-result.js';
import { keypointNames, type PoseDetection } from './pose-decode.js';
import { detectPoses, loadPoseSession, type PoseSession, poseScoreThreshold } from './pose-model.js';

const visibleFrom = 0.5;
const oneDecimal = (value: number): number => Math.round(value * 10) / 10;
const note =
  'Note: The bbox coordinates are in {xmin, ymin, xmax, ymax} format, where the origin (0,0) is at the top-left corner of the image. The pose keypoints follow the same coordinate system, with visibility states (not visible, visible).';

function personObject(person: PoseDetection, includeDescription: boolean): Record<string, unknown> {
  const bbox = { xmin: oneDecimal(person.x1), ymin: oneDecimal(person.y1), xmax: oneDecimal(person.x2), ymax: oneDecimal(person.y2) };
  const pose = Object.fromEntries(
    keypointNames.map((name, k) => {
      const point = person.keypoints[k] ?? { x: 0, y: 0, score: 0 };
      return [name, { x: oneDecimal(point.x), y: oneDecimal(point.y), visible: point.score >= visibleFrom ? 'visible' : 'not visible' }];
    }),
  );
  const visible = person.keypoints.filter((point) => point.score >= visibleFrom).length;
  const description = `person at (${Math.round(person.x1)},${Math.round(person.y1)})-(${Math.round(person.x2)},${Math.round(person.y2)}), ${Math.round(person.score * 100)}%, ${visible} of ${keypointNames.length} keypoints visible`;
  return { name: 'person', bbox, pose, score: Math.round(person.score * 1000) / 1000, ...(includeDescription ? { description } : {}) };
}

/** The answer for one run. */
function poseAnswer(
  run: { people: PoseDetection[]; width: number; height: number },
  source: string,
  modelFile: string,
  includeDescription: boolean,
): CallToolResult {
  const objects = run.people.map((person) => personObject(person, includeDescription));
  const model = `YOLO pose (Ultralytics export, local ONNX ${path.basename(modelFile)})`;
  const modelLine = `Pose model: ${model}; image ${JSON.stringify(source)} (${run.width}x${run.height} pixels); persons with score above ${poseScoreThreshold}; keypoints visible at score ${visibleFrom} or more.`;
  return {
    content: [
      { type: 'text', text: `${objects.length} human(s) detected in image.` },
      { type: 'text', text: `Detailed human pose keypoints detection results: ${JSON.stringify(objects, null, 2)}` },
      { type: 'text', text: note },
      { type: 'text', text: modelLine },
    ],
    structuredContent: { model, image: { source, width: run.width, height: run.height }, scoreThreshold: poseScoreThreshold, count: objects.length, objects },
  };
}

export function registerPoseTool(server: McpServer, modelFile: string): void {
  let loaded: Promise<PoseSession> | undefined;
  const session = () => {
    loaded ??= loadPoseSession(modelFile).catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  server.registerTool(
    'detect-human-pose-keypoints',
    {
      description: `Detect people with their 17 COCO pose keypoints (nose, eyes, ears, shoulders, elbows, wrists, hips, knees, ankles) and boxes, with a local YOLO pose model (${path.basename(modelFile)}).`,
      inputSchema: {
        imageFileUri: z
          .string()
          .describe('The image: a file path (relative to the repository root or absolute, inside the allowed folders), a file:// URI, or a data: URL'),
        includeDescription: z.boolean().optional().describe('Add a one-line description to each person (default false)'),
      },
    },
    (args, call) =>
      guarded(async () => {
        const image = await loadImageInput(args.imageFileUri, (given) => resolveInputArgument(given, call));
        const run = await detectPoses(await session(), image.bytes);
        const source = args.imageFileUri.startsWith('data:') ? 'data URL' : args.imageFileUri;
        return poseAnswer(run, source, modelFile, args.includeDescription ?? false);
      }),
  );
}
