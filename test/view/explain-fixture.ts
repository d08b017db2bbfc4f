// A run the task page must explain, built from real pieces: a store written through the store
// module (an OpenAI-shaped wire request with a task image and two tools offered, a tool call the
// fallback layer served), the task and GT files it names, a task image (a PNG made with sharp),
// and the step evaluation written by the real step evaluator (`runStepFiles`, the offline
// hashgram embedder, its embedding cache beside it).
//   near   the model called the right tool with misnamed arguments (a near miss, similarity 0.56) and answered 180;
//          the GT states a rule evaluator and a precise answer of 18, so it fails both checks
//   exact  the model made the GT's call and answered 5: no checks, the step rule passes it
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createEmbedder } from '../../src/eval/embed/registry.js';
import { runStepFiles } from '../../src/eval/step/run.js';
import { createRun, finishEpisode, finishRun, openStore, recordModelCall, recordToolCalls, startEpisode, type Store } from '../../src/store/index.js';

export const runId = 'explain-run';
export const gtArguments = { firstNumber: 13, secondNumber: 5 };
export const nearArguments = { first: 13, second: 5 };

const gt = [
  {
    id: 'near',
    question: 'Compute 13 + 5 with the math server and state the total.',
    steps: [{ step: 1, calls: [{ name: 'math/add', arguments: gtArguments }] }],
    final_reply: 'The total is 18.',
    evaluators: [{ func: 'numbers', op: 'contains', value: 18 }],
    answer: { value: 18, tolerance: 0 },
  },
  {
    id: 'exact',
    question: 'Add 2 and 3.',
    steps: [{ step: 1, calls: [{ name: 'math/add', arguments: { firstNumber: 2, secondNumber: 3 } }] }],
    final_reply: '5',
  },
];
const fuzzy = [
  { id: 'near', question: 'What do these two numbers on the picture add up to?', image: 'task.png' },
  { id: 'exact', question: 'Add 2 and 3.' },
];

function prediction(id: string, calls: Array<{ name: string; arguments: unknown; result: string }>, reply: string) {
  const question = fuzzy.find((task) => task.id === id)?.question ?? '';
  return { id, question, steps: [{ step: 1, calls }], num_step: 1, max_num_concurrent: 1, final_reply: reply, dialogue: [] };
}

const predictions = [
  prediction('near', [{ name: 'math/add', arguments: nearArguments, result: '180' }], 'The total is 180.'),
  prediction('exact', [{ name: 'math/add', arguments: { firstNumber: 2, secondNumber: 3 }, result: '5' }], '5'),
];

export interface ExplainFixture {
  resultsDir: string;
  store: Store;
  imageFile: string;
  imageBytes: number;
}

function wireRequest(imageBase64: string) {
  return {
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'You are a careful assistant with tools.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: fuzzy[0]!.question },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${imageBase64}` } },
        ],
      },
    ],
    tools: ['math__add', 'math__multiply'].map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } })),
  };
}

function seedEpisode(store: Store, taskId: string, image: { file: string; bytes: number; base64: string } | null): void {
  const episodeId = startEpisode(store, { runId, taskId, model: 'openai:gpt-4o-mini' });
  const images = image
    ? [{ origin: 'task' as const, source: image.file, width: 64, height: 32, mediaType: 'image/png', bytes: image.bytes, status: 'sent' as const }]
    : [];
  const usage = { inputTokens: 1200, outputTokens: 40, cachedTokens: 0 };
  recordModelCall(store, {
    episodeId,
    round: 1,
    purpose: 'work',
    request: image ? wireRequest(image.base64) : { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Add 2 and 3.' }], tools: [] },
    response: { text: '', toolCallCount: 1 },
    usage,
    imagePayload: { count: images.length, bytes: image?.bytes ?? 0, estimatedTokens: null },
    images,
  });
  const call = predictions.find((entry) => entry.id === taskId)!.steps[0]!.calls[0]!;
  recordToolCalls(store, [
    {
      episodeId,
      round: 1,
      callIndex: 0,
      canonicalName: call.name,
      arguments: call.arguments,
      resultText: call.result,
      ...(taskId === 'near' ? { fallback: { tier: 'template', originalErrorCode: 'upstream_network' } } : {}),
    },
  ]);
  const reply = predictions.find((entry) => entry.id === taskId)!;
  finishEpisode(store, episodeId, { status: 'ok', rounds: 1, toolCallCount: 1, usage, prediction: reply });
}

export async function buildExplainFixture(dir: string): Promise<ExplainFixture> {
  const resultsDir = path.join(dir, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const files = { tasks: path.join(dir, 'tasks.json'), gt: path.join(dir, 'gt.json'), predictions: path.join(resultsDir, 'm_test_mcp_fuzzy.json') };
  writeFileSync(files.tasks, JSON.stringify(fuzzy));
  writeFileSync(files.gt, JSON.stringify(gt));
  writeFileSync(files.predictions, JSON.stringify(predictions));
  const imageFile = path.join(resultsDir, 'task.png');
  // Noise, so the PNG is large enough (over 1 KB of base64) for the store to elide it.
  const png = await sharp({
    create: { width: 64, height: 32, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 60 } },
  })
    .png()
    .toBuffer();
  if (png.length < 1024) throw new Error(`the fixture image is ${png.length} bytes: too small to be elided`);
  writeFileSync(imageFile, png);
  const store = openStore(path.join(resultsDir, 'm3bench.sqlite'));
  createRun(store, { runId, modelSpec: 'openai:gpt-4o-mini', modelLabel: 'm', taskFile: files.tasks, gtFile: files.gt });
  seedEpisode(store, 'near', { file: imageFile, bytes: png.length, base64: png.toString('base64') });
  seedEpisode(store, 'exact', null);
  finishRun(store, runId, 'finished');
  await runStepFiles({
    gtFile: files.gt,
    predFile: files.predictions,
    outputDir: path.join(resultsDir, 'm'),
    embedder: createEmbedder('hashgram-v1'),
    mode: 'default',
    thresholds: { tauStrong: 0.8, tauWeak: 0.6 },
  });
  return { resultsDir, store, imageFile, imageBytes: png.length };
}
