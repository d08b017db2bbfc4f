// Integral floats keep their type. The original ground truth of task 00070001 has
// `ppt/manage_image {"left": 1.0, "width": 8.0, ...}`; a model that writes exactly those calls
// (replayed here through the wire-level mock, as OpenAI argument text and as Anthropic JSON
// input) must be recorded as `1.0`, as Python's json.dumps writes a float, so the argument text
// the step evaluator embeds, and every similarity, equals the reference's (1.0 for these calls).
// Gemini is not tested here: its SDK hands over parsed objects and its protobuf wire has no
// integer/float distinction (see src/llm/gemini/response.ts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonFloat } from '../../src/core/json-numbers.js';
import { serializeArguments } from '../../src/eval/step/serialize.js';
import { PredictionFile } from '../../src/runner/prediction-file.js';
import type { PredictionRecord } from '../../src/tasks/schemas.js';
import { toBaseFunctionName } from '../../src/mcp/function-names.js';
import { startMockLlm, type MockLlm, type MockTurn } from '../support/mock-llm/index.js';
import { repoRoot, sharedDataDir } from '../support/shared-assets.js';
import { runM3, taskFolder } from './run-child.js';

const dataDir = sharedDataDir();
const taskId = '00070001';
type Call = { name: string; arguments: unknown };
type Task = { id: string; steps: Array<{ step: number; calls: Call[] }>; [key: string]: unknown };

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm();
});
afterAll(async () => {
  await mock?.close();
});

/** The task as the original file has it, numbers as written (lossless-json keeps `1.0`). */
function originalTask(): { gt: Task; fuzzy: Record<string, unknown> } {
  const all = parseLossless(readFileSync(path.join(dataDir!, 'test_mcp_GT.json'), 'utf8')) as Task[] | { data: Task[] };
  const fuzzy = JSON.parse(readFileSync(path.join(dataDir!, 'tasks_fuzzy.json'), 'utf8')) as
    | Array<Record<string, unknown>>
    | { data: Array<Record<string, unknown>> };
  const list = <T>(value: T[] | { data: T[] }): T[] => (Array.isArray(value) ? value : value.data);
  return { gt: list(all).find((task) => task.id === taskId)!, fuzzy: list(fuzzy).find((task) => task.id === taskId)! };
}

// Steps whose servers are local and that write no file: draw on, and fill a slide deck in memory.
const local = new Set(['imagesorcery-mcp/draw_circles', 'imagesorcery-mcp/draw_texts', 'ppt/create_presentation', 'ppt/add_slide', 'ppt/manage_image']);

describe('the prediction file keeps float forms across --resume', () => {
  it('writes JsonFloat as Python does, and a reload keeps it', async () => {
    const folder = taskFolder('floats-resume', []);
    const file = path.join(folder.dir, 'predictions.json');
    const record = {
      id: 'r1',
      question: 'q',
      steps: [
        { step: 1, calls: [{ name: 'ppt/manage_image', arguments: { left: new JsonFloat(1), top: new JsonFloat(40.5), slide_index: 1 }, result: 'ok' }] },
      ],
      num_step: 1,
      max_num_concurrent: 1,
      final_reply: 'done',
      dialogue: [],
    };
    const first = new PredictionFile(file);
    first.put(record as unknown as PredictionRecord);
    first.save();
    const reopened = new PredictionFile(file);
    expect(reopened.load()).toBe(1);
    reopened.save();
    expect(readFileSync(file, 'utf8')).toContain('"left": 1.0,\n              "top": 40.5,\n              "slide_index": 1');
  });
});

describe.skipIf(!dataDir)(`integral floats of the original ground truth (${taskId})`, () => {
  for (const vendor of [
    { model: 'openai:mock-model', label: 'mock-model', env: () => ({ OPENAI_API_KEY: 'k3y-openai-floats-0123', OPENAI_BASE_URL: mock.openAiBaseUrl }) },
    { model: 'anthropic:claude-mock', label: 'claude-mock', env: () => ({ ANTHROPIC_API_KEY: 'k3y-anthropic-floats-0123', ANTHROPIC_BASE_URL: mock.url }) },
  ]) {
    it(`${vendor.model}: 1.0 stays 1.0 from the wire to the prediction file and the step evaluation`, async () => {
      const { gt, fuzzy } = originalTask();
      const steps = gt.steps.map((step) => step.calls.filter((call) => local.has(call.name))).filter((calls) => calls.length > 0);
      const sent = steps.flat();
      expect(JSON.stringify(stringifyLossless(sent))).toContain('\\"left\\":1.0');
      const turns: MockTurn[] = steps.map((calls) => ({
        toolCalls: calls.map((call) => ({ name: toBaseFunctionName(call.name), rawArguments: stringifyLossless(call.arguments)! })),
      }));
      mock.enqueue(...turns, { text: 'The report is ready.' });

      const folder = taskFolder('floats', []);
      const servers = JSON.parse(readFileSync(path.join(repoRoot, 'mcp_servers.json'), 'utf8')) as { servers: Record<string, unknown> };
      writeFileSync(
        path.join(folder.dir, 'servers.json'),
        JSON.stringify({ servers: { 'imagesorcery-mcp': servers.servers['imagesorcery-mcp'], ppt: servers.servers.ppt } }),
      );
      writeFileSync(path.join(folder.dir, 'tasks.json'), JSON.stringify([fuzzy]));
      const gtFile = path.join(folder.dir, 'gt.json');
      writeFileSync(gtFile, stringifyLossless([gt])!);
      mkdirSync(path.join(folder.dir, path.dirname(String(fuzzy.image))), { recursive: true });
      await sharp({ create: { width: 96, height: 64, channels: 3, background: '#888' } })
        .png()
        .toFile(path.join(folder.dir, String(fuzzy.image)));

      const env = { ...vendor.env(), M3_LLM_MAX_RETRIES: '0', M3_WORKSPACE_MODE: 'isolated', M3_KEEP_WORKSPACE: '0' };
      const run = await runM3(['run', '--model', vendor.model, ...folder.args, '--gt', gtFile, '--allow-missing-servers', '--max-step', '6'], env);
      expect(run.code, run.stderr).toBe(0);
      const predictionFile = path.join(folder.results, `${vendor.label}_test_mcp_fuzzy.json`);
      const text = readFileSync(predictionFile, 'utf8');
      expect(text).toMatch(/"left": 1\.0,/);
      expect(text).toMatch(/"width": 8\.0,/);
      expect(text).toMatch(/"font_scale": 0\.9,/);

      // The evaluator's own serialisation (Python's json.dumps) of every recorded call equals the GT's.
      const [prediction] = parseLossless(text) as Task[];
      const recorded = prediction!.steps.flatMap((step) => step.calls);
      expect(recorded.map((call) => call.name)).toEqual(sent.map((call) => call.name));
      expect(recorded.map((call) => serializeArguments(call.arguments))).toEqual(sent.map((call) => serializeArguments(call.arguments)));

      const output = path.join(folder.results, vendor.label);
      const evaluated = await runM3(['eval', 'step', '--gt', gtFile, '--pred', predictionFile, '--output-dir', output], env);
      expect(evaluated.code, evaluated.stderr).toBe(0);
      const strong = JSON.parse(readFileSync(path.join(output, 'strong_matches.json'), 'utf8')) as unknown;
      // Identical texts embed to identical vectors: similarity 1 up to rounding (the reference's too).
      const similarities = (JSON.stringify(strong).match(/"similarity":\s*[\d.e-]+/g) ?? []).map((entry) => Number(entry.split(':')[1]));
      expect(similarities).toHaveLength(sent.length);
      for (const similarity of similarities) expect(similarity).toBeCloseTo(1, 6);
    }, 180_000);
  }
});
