// A run of any size for the run page's search, filter and paging tests and for `npm run bench:view`,
// written through the project's own writers: the store module (episodes with predictions, model
// and tool calls), the runner's batch manifest, the GT and prediction files, and the real step
// evaluator (offline hashgram embedder). Task i (T00001, ...) asks for the weather of city i with
// one tool call; its outcome follows from i, so tests can count what each filter must show:
//   i % 5 === 0   the wrong tool (weather/get_air_quality): no GT call matched, fails the step rule
//   i % 7 === 0   a model failure (no tool call, no answer)
//   i % 11 === 0  the tool call was served by the fallback layer (tier template)
//   i % 13 === 0  the tool call failed without an error code
//   i % 17 === 0  an infrastructure failure (left out of the prediction file, as the runner does)
// Rules are checked in that order of precedence: model failure and infra failure first.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createEmbedder } from '../../src/eval/embed/registry.js';
import { runStepFiles } from '../../src/eval/step/run.js';
import { writeBatchManifest } from '../../src/runner/batch-manifest.js';
import {
  createRun,
  finishEpisode,
  finishRun,
  inTransaction,
  openStore,
  recordModelCall,
  recordToolCalls,
  startEpisode,
  type Store,
} from '../../src/store/index.js';

export type TaskKind = 'pass' | 'wrong_tool' | 'model_failure' | 'infra_failure';

export function kindOf(i: number): TaskKind {
  if (i % 17 === 0) return 'infra_failure';
  if (i % 7 === 0) return 'model_failure';
  return i % 5 === 0 ? 'wrong_tool' : 'pass';
}

export const taskIdOf = (i: number) => `T${String(i).padStart(5, '0')}`;
export const cityOf = (i: number) => `city-${i}-${['oslo', 'lima', 'pune', 'kyiv', 'nuuk'][i % 5]}`;
const toolOf = (i: number) => (i % 3 === 0 ? 'weather/get_forecast' : 'weather/get_weather');

export interface BuiltRun {
  resultsDir: string;
  store: Store;
  runId: string;
}

function writeEpisode(store: Store, runId: string, i: number): Record<string, unknown> | null {
  const kind = kindOf(i);
  const id = taskIdOf(i);
  const episodeId = startEpisode(store, { runId, taskId: id, model: 'openai:gpt-4o-mini' });
  const usage = { inputTokens: 500 + i, outputTokens: 20, cachedTokens: 0 };
  const question = `What is the weather in ${cityOf(i)} today?`;
  if (kind === 'model_failure' || kind === 'infra_failure') {
    const code = kind === 'infra_failure' ? 'upstream_network' : 'context_length';
    finishEpisode(store, episodeId, { status: kind, errorCode: code, errorMessage: `episode ${id} ended: ${code}`, usage });
    return kind === 'infra_failure' ? null : { id, question, steps: [], final_reply: '', status: 'model_failure' };
  }
  recordModelCall(store, { episodeId, round: 1, purpose: 'work', request: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: question }] }, usage });
  const args = { city: cityOf(i) };
  const tool = kind === 'wrong_tool' ? 'weather/get_air_quality' : toolOf(i);
  const uncoded = i % 13 === 0;
  const result = uncoded ? '[Tool error] the service answered nothing' : `sunny in ${args.city}`;
  recordToolCalls(store, [
    {
      episodeId,
      round: 1,
      callIndex: 0,
      canonicalName: tool,
      arguments: args,
      resultText: result,
      isError: uncoded,
      ...(i % 11 === 0 ? { fallback: { tier: 'template', originalErrorCode: 'upstream_network' } } : {}),
    },
  ]);
  const prediction = { id, question, steps: [{ step: 1, calls: [{ name: tool, arguments: args, result }] }], final_reply: `It is sunny in ${args.city}.` };
  finishEpisode(store, episodeId, { status: 'ok', rounds: 1, toolCallCount: 1, usage, prediction });
  return prediction;
}

export async function buildRun(dir: string, count: number, runId = 'find-run'): Promise<BuiltRun> {
  const resultsDir = path.join(dir, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const indices = Array.from({ length: count }, (_, n) => n + 1);
  const gt = indices.map((i) => ({
    id: taskIdOf(i),
    question: `What is the weather in ${cityOf(i)} today?`,
    steps: [{ step: 1, calls: [{ name: toolOf(i), arguments: { city: cityOf(i) } }] }],
    final_reply: `It is sunny in ${cityOf(i)}.`,
  }));
  const files = { gt: path.join(dir, 'gt.json'), predictions: path.join(resultsDir, 'm_test_mcp_fuzzy.json'), batch: path.join(resultsDir, 'b.batch.json') };
  writeFileSync(files.gt, JSON.stringify(gt));
  const store = openStore(path.join(resultsDir, 'm3bench.sqlite'));
  createRun(store, { runId, modelSpec: 'openai:gpt-4o-mini', modelLabel: 'm', taskFile: files.gt, gtFile: files.gt, batchId: 'b' });
  const predictions: Array<Record<string, unknown>> = [];
  for (let start = 0; start < count; start += 500) {
    inTransaction(store, () => {
      for (const i of indices.slice(start, start + 500)) {
        const prediction = writeEpisode(store, runId, i);
        if (prediction) predictions.push(prediction);
      }
    });
  }
  finishRun(store, runId, 'finished');
  writeFileSync(files.predictions, JSON.stringify(predictions));
  const trial = { trial: 1, seed: null, label: 'm', predictions: path.basename(files.predictions), manifest: 'm_manifest.json' };
  writeBatchManifest(files.batch, {
    kind: 'm3bench-batch',
    version: 1,
    batchId: 'b',
    startedAt: new Date().toISOString(),
    finishedAt: new Date().toISOString(),
    tasksFile: files.gt,
    gtFile: files.gt,
    trials: 1,
    conditions: ['baseline'],
    seed: null,
    store: store.file,
    cells: [{ model: 'openai:gpt-4o-mini', modelLabel: 'm', condition: 'baseline', label: 'm', runId, trials: [trial] }],
  });
  await runStepFiles({
    gtFile: files.gt,
    predFile: files.predictions,
    outputDir: path.join(resultsDir, 'm'),
    embedder: createEmbedder('hashgram-v1'),
    mode: 'default',
    thresholds: { tauStrong: 0.8, tauWeak: 0.6 },
  });
  return { resultsDir, store, runId };
}
