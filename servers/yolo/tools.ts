// The detector tools (served as dinox-mcp). Names and arguments follow the reference cloud detector:
// detect-all-objects {imageFileUri, includeDescription}, detect-objects-by-text {imageFileUri,
// textPrompt, includeDescription}, visualize-detection-result {imageFileUri, detections, ...};
// extra optional arguments: annotate (PNG with boxes drawn) and scoreThreshold. As in the
// reference's own local YOLO replacement of that detector, includeDescription is optional
// (default false). detect-human-pose-keypoints is in pose-tool.ts (offered when a pose model is present).
// detect-objects-by-text runs the open-vocabulary model (world-model.ts) when its files are present
// at start, else maps the prompt onto COCO-80 and names the terms it cannot search.
// Answers follow the reference's content layout (result.ts).
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { resolveAllowedPath } from '../shared/allowed-roots.js';
import { loadImageInput, type LoadedImage } from '../shared/image-input.js';
import { resolveInputArgument, resolveOutputArgument } from '../shared/task-paths.js';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { drawBoxes, type DrawnBox } from './annotate.js';
import { defaultScoreThreshold, detectObjects, getSession } from './detector.js';
import { cocoLabels, type CocoLabel } from './labels.js';
import { mapPromptToClasses, splitPrompt } from './prompt-classes.js';
import { createDetectionAnswer, createOpenVocabAnswer, createTextDetectionAnswer, type DetectionAnswer, toToolResult } from './result.js';
import { findPoseModel } from './pose-model.js';
import { registerPoseTool } from './pose-tool.js';
import { detectTerms, findOpenVocabModels, loadOpenVocab, type OpenVocab, type OpenVocabFiles } from './world-model.js';

const imageFileUri = z
  .string()
  .describe('The image: a file path (relative to the repository root or absolute, inside the allowed folders), a file:// URI, or a data: URL');
const includeDescription = z.boolean().optional().describe('Add a one-line description to each object, e.g. "dog at (133,205)-(323,543), 85%"');
const annotate = z.boolean().optional().describe('Also return the image with the boxes and labels drawn, as PNG image content (default false)');
const scoreThreshold = z
  .number()
  .min(0)
  .max(1)
  .optional()
  .describe(`Keep objects whose score (objectness x class probability) is above this; default ${defaultScoreThreshold}`);

/** The image as the caller named it: error messages and results never show the resolved path. */
function sourceLabel(input: string): string {
  return input.startsWith('data:') ? 'data URL' : input;
}

/** Draws exactly the reported objects, so the picture and the text always agree. */
async function finish(answer: DetectionAnswer, image: LoadedImage, drawn: boolean): Promise<CallToolResult> {
  if (!drawn) return toToolResult(answer);
  const boxes: DrawnBox[] = answer.objects.map((object) => ({
    x1: object.bbox.xmin,
    y1: object.bbox.ymin,
    x2: object.bbox.xmax,
    y2: object.bbox.ymax,
    label: `${object.name} ${Math.round(object.score * 100)}%`,
    ...(cocoLabels.includes(object.name as CocoLabel) ? { colourKey: cocoLabels.indexOf(object.name as CocoLabel) } : {}),
  }));
  const { png } = await drawBoxes(image.bytes, boxes);
  return toToolResult(answer, [{ data: png, mimeType: 'image/png' }]);
}

interface DetectArgs {
  imageFileUri: string;
  includeDescription?: boolean | undefined;
  annotate?: boolean | undefined;
  scoreThreshold?: number | undefined;
}

type CallExtra = { _meta?: unknown } | undefined;

async function runDetection(args: DetectArgs, call: CallExtra) {
  const image = await loadImageInput(args.imageFileUri, (given) => resolveInputArgument(given, call));
  const scoreThreshold = args.scoreThreshold ?? defaultScoreThreshold;
  const run = await detectObjects(await getSession(), image.bytes, scoreThreshold, image);
  const frame = { source: sourceLabel(args.imageFileUri), width: run.width, height: run.height };
  return { image, run, frame, options: { includeDescription: args.includeDescription ?? false, scoreThreshold } };
}

async function detectAll(args: DetectArgs, call: CallExtra): Promise<CallToolResult> {
  const { image, run, frame, options } = await runDetection(args, call);
  return finish(createDetectionAnswer(run.detections, frame, options), image, args.annotate ?? false);
}

/** Ultralytics' default confidence for YOLO-World predictions (its scores run lower than YOLOX's). */
const openVocabScoreThreshold = 0.25;

async function detectByTerms(args: DetectArgs & { textPrompt: string }, call: CallExtra, model: OpenVocab): Promise<CallToolResult> {
  const terms = [...new Set(splitPrompt(args.textPrompt))];
  if (terms.length === 0) throw new Error('textPrompt is empty: name the objects to find, separated by "." (e.g. "person.dog.car")');
  const image = await loadImageInput(args.imageFileUri, (given) => resolveInputArgument(given, call));
  const scoreThreshold = args.scoreThreshold ?? openVocabScoreThreshold;
  const run = await detectTerms(model, image.bytes, terms, scoreThreshold);
  const frame = { source: sourceLabel(args.imageFileUri), width: run.width, height: run.height };
  const label = `YOLO-World (open vocabulary, local ONNX ${path.basename(model.files.world)}, CLIP text encoder)`;
  const options = { includeDescription: args.includeDescription ?? false, scoreThreshold, model: label };
  return finish(createOpenVocabAnswer(run.detections, frame, args.textPrompt, terms, options), image, args.annotate ?? false);
}

async function detectByText(args: DetectArgs & { textPrompt: string }, call: CallExtra): Promise<CallToolResult> {
  const mapping = mapPromptToClasses(args.textPrompt);
  if (mapping.matched.length === 0 && mapping.unsupported.length === 0) {
    throw new Error('textPrompt is empty: name the objects to find, separated by "." (e.g. "person.dog.car")');
  }
  const { image, run, frame, options } = await runDetection(args, call);
  return finish(createTextDetectionAnswer(run.detections, frame, args.textPrompt, mapping, options), image, args.annotate ?? false);
}

// Detections to draw: the reference's {name, bbox: {xmin, ymin, xmax, ymax}} (what the detection
// tools answer) or this server's earlier {category, score, bbox: {x1, y1, x2, y2}}, so a result
// of either shape can be passed straight back in. The listed schema requires only bbox; a label
// (name or category) is checked here, with a message naming the entry.
const givenDetection = z.object({
  name: z.string().min(1).optional().describe('Label to draw (the reference key)'),
  category: z.string().min(1).optional().describe('Accepted instead of name (earlier output of this server)'),
  score: z.number().optional().describe('Ignored; accepted so detection results can be passed back unchanged'),
  bbox: z.union([
    z.object({ xmin: z.number(), ymin: z.number(), xmax: z.number(), ymax: z.number() }),
    z.object({ x1: z.number(), y1: z.number(), x2: z.number(), y2: z.number() }),
  ]),
});

function toCorners(bbox: z.output<typeof givenDetection>['bbox']): { x1: number; y1: number; x2: number; y2: number } {
  const [ax, ay, bx, by] = 'xmin' in bbox ? [bbox.xmin, bbox.ymin, bbox.xmax, bbox.ymax] : [bbox.x1, bbox.y1, bbox.x2, bbox.y2];
  return { x1: Math.min(ax, bx), y1: Math.min(ay, by), x2: Math.max(ax, bx), y2: Math.max(ay, by) };
}

function labelOf(detection: z.output<typeof givenDetection>, index: number): string {
  const label = detection.name ?? detection.category;
  if (label === undefined) throw new Error(`detections[${index}] has no label: give "name" (or "category")`);
  return label;
}

async function visualize(
  args: {
    imageFileUri: string;
    detections: Array<z.output<typeof givenDetection>>;
    fontSize?: number | undefined;
    boxThickness?: number | undefined;
    showLabels?: boolean | undefined;
    outputPath?: string | undefined;
  },
  call: CallExtra,
): Promise<CallToolResult> {
  const image = await loadImageInput(args.imageFileUri, (given) => resolveInputArgument(given, call));
  const boxes = args.detections.map((detection, index) => ({ label: labelOf(detection, index), ...toCorners(detection.bbox) }));
  const drawn = await drawBoxes(image.bytes, boxes, {
    ...(args.fontSize !== undefined ? { fontSize: args.fontSize } : {}),
    ...(args.boxThickness !== undefined ? { boxThickness: args.boxThickness } : {}),
    ...(args.showLabels !== undefined ? { showLabels: args.showLabels } : {}),
  });
  let savedTo: string | undefined;
  if (args.outputPath) {
    savedTo = resolveOutputArgument(args.outputPath, call, resolveAllowedPath);
    await mkdir(path.dirname(savedTo), { recursive: true });
    await writeFile(savedTo, drawn.png);
  }
  const outside = boxes.filter((box) => box.x2 <= 0 || box.y2 <= 0 || box.x1 >= drawn.width || box.y1 >= drawn.height);
  return jsonResult(
    {
      image: { source: sourceLabel(args.imageFileUri), width: drawn.width, height: drawn.height },
      drawn: boxes.length,
      ...(outside.length > 0 ? { outsideImage: outside.map((box) => `${box.label} at (${box.x1},${box.y1})-(${box.x2},${box.y2})`) } : {}),
      ...(savedTo ? { savedTo } : {}),
    },
    [{ data: drawn.png, mimeType: 'image/png' }],
  );
}

/** `openVocab`: the YOLO-World and CLIP files when present; detect-objects-by-text then searches every term as written. */
function registerDetectionTools(server: McpServer, openVocab: OpenVocabFiles | undefined): void {
  let loaded: Promise<OpenVocab> | undefined;
  const openModel = (files: OpenVocabFiles) => {
    loaded ??= loadOpenVocab(files).catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  server.registerTool(
    'detect-all-objects',
    {
      description:
        'Detect every object of the 80 COCO classes (people, vehicles, animals, food, household items, ...) in an image with YOLOX-Nano; returns categories, per-category counts and pixel boxes.',
      inputSchema: { imageFileUri, includeDescription, annotate, scoreThreshold },
    },
    (args, call) => guarded(() => detectAll(args, call)),
  );
  server.registerTool(
    'detect-objects-by-text',
    {
      description: openVocab
        ? 'Detect the objects named in a prompt ("hardhat.safety vest.ladder"; "." "," or "and" separate terms) with an open-vocabulary detector (YOLO-World): every term is searched as written.'
        : 'Detect the objects named in a prompt ("person.dog.car"; "." "," or "and" separate terms). Terms are mapped onto the 80 COCO classes (synonyms and plurals understood); terms outside that vocabulary are listed as unsupported, not searched.',
      inputSchema: { imageFileUri, textPrompt: z.string().describe('Object names separated by "."'), includeDescription, annotate, scoreThreshold },
    },
    (args, call) => guarded(async () => (openVocab ? detectByTerms(args, call, await openModel(openVocab)) : detectByText(args, call))),
  );
  server.registerTool(
    'visualize-detection-result',
    {
      description: 'Draw the given boxes and labels onto the image; returns the PNG and, with outputPath, saves it there.',
      inputSchema: {
        imageFileUri,
        detections: z.array(givenDetection).describe('Boxes to draw: [{name, bbox: {xmin, ymin, xmax, ymax}}] (or bbox {x1, y1, x2, y2}) in image pixels'),
        fontSize: z.number().positive().max(200).optional(),
        boxThickness: z.number().positive().max(100).optional(),
        showLabels: z.boolean().optional(),
        outputPath: z.string().optional().describe('Where to save the PNG (inside the allowed folders, e.g. media/out.png)'),
      },
    },
    (args, call) => guarded(() => visualize(args, call)),
  );
}

/** The optional model files found at start; a tool whose model is absent is not listed (index.ts). */
export interface YoloModels {
  openVocab?: OpenVocabFiles | undefined;
  poseModel?: string | undefined;
}

/** Finds the optional models in process.env and the pulled assets; throws when a configured path does not exist. */
function findYoloModels(): YoloModels {
  return { openVocab: findOpenVocabModels(), poseModel: findPoseModel() };
}

export function registerYoloTools(server: McpServer, models: YoloModels = findYoloModels()): void {
  registerDetectionTools(server, models.openVocab);
  if (models.poseModel) registerPoseTool(server, models.poseModel);
}
