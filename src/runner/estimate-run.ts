// `m3 run --estimate`: what a run would send and cost per model, and what the final-answer judges
// would cost, from the task set, the ground truth, the tool catalog and the price table, with no
// model request and no server start (src/runner/estimate-task.ts has the per-task model). A real
// run stores the same estimate in its batch manifest, so `m3 summary` prints estimate vs actual.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { agentOptionsFrom, type LoopLimits } from '../agent/options.js';
import type { EnvMap } from '../config/env-file.js';
import type { Switches } from '../config/switches.js';
import { defaultJudges, loadPromptFile } from '../eval/final/judge-kit.js';
import { visionVendorOf } from '../llm/image-destination.js';
import { costUsd, loadPriceTable, priceRecord } from '../llm/pricing.js';
import type { CatalogTool } from '../mcp/types.js';
import { toolCatalogFiles } from '../results/layout.js';
import { loadJsonFile } from '../tasks/load-json.js';
import { CHARS_PER_TOKEN, estimateTask, TOOL_RESULT_CHARS, type TaskEstimate } from './estimate-task.js';
import type { RunnableTask, TaskSet } from './task-set.js';
import { mean, sum } from '../core/number-format.js';

// A type alias (not an interface): the batch manifest's loose schema takes it as a record.
type ModelEstimate = {
  model: string;
  /** Tasks x trials. */
  tasks: number;
  /** Mean expected requests per task, and their total. */
  requestsPerTask: number;
  requests: number;
  /** Per request (mean over tasks): the task images as the transport policy prepares them. */
  imagesPerRequest: number;
  imageBytesPerRequest: number;
  /** Null: no published image formula for the endpoint (OpenAI-compatible servers, replay). */
  imageTokensPerRequest: number | null;
  inputTokens: number;
  outputTokens: number;
  /** USD at the price table; null: the model has no price. */
  costUsd: number | null;
  price: string | null;
};

interface JudgeEstimate {
  judge: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

export interface RunEstimate {
  models: ModelEstimate[];
  /** The default judge ensemble of `m3 eval final --judges default`, both metrics, over every model's tasks. */
  judges: JudgeEstimate[];
  /** Where the tool definitions came from (null: none found; tool text is then left out). */
  toolCatalog: string | null;
  assumptions: string[];
}

export interface EstimateInput {
  models: readonly string[];
  tasks: readonly RunnableTask[];
  taskSet: Pick<TaskSet, 'groundTruth'>;
  tools: readonly CatalogTool[];
  toolCatalog: string | null;
  switches: Switches;
  env: EnvMap;
  limits: LoopLimits;
  imageDirs: readonly string[];
  trials: number;
}

/** A judge answers with a score and a sentence or two. */
const JUDGE_OUTPUT_TOKENS = 60;

function modelEstimate(model: string, perTask: readonly TaskEstimate[], trials: number, env: EnvMap): ModelEstimate {
  const table = loadPriceTable(env);
  const inputTokens = sum(perTask.map((task) => task.inputTokens)) * trials;
  const outputTokens = sum(perTask.map((task) => task.outputTokens)) * trials;
  const imageTokens = perTask.map((task) => task.images.estimatedTokens);
  return {
    model,
    tasks: perTask.length * trials,
    requestsPerTask: mean(
      perTask.map((task) => task.requests),
      0,
    ),
    requests: sum(perTask.map((task) => task.requests)) * trials,
    imagesPerRequest: mean(
      perTask.map((task) => task.images.count),
      0,
    ),
    imageBytesPerRequest: mean(
      perTask.map((task) => task.images.bytes),
      0,
    ),
    imageTokensPerRequest: imageTokens.some((tokens) => tokens === null) ? null : mean(imageTokens as number[], 0),
    inputTokens,
    outputTokens,
    costUsd: costUsd(model, { inputTokens, outputTokens, cachedTokens: 0 }, table) ?? null,
    price: priceRecord(model, table, env.M3_PRICE_TABLE),
  };
}

/** Each judge scores each task twice (task completion, information grounding) from the question, the expected and given answers and the steps. */
function judgeEstimates(input: EstimateInput, taskCount: number): JudgeEstimate[] {
  const rubric = (loadPromptFile('task-completion.md').length + loadPromptFile('information-grounding.md').length) / 2;
  const perTask = input.tasks.map((task) => {
    const gt = input.taskSet.groundTruth.get(task.id);
    const steps = JSON.stringify(gt?.steps ?? []).length * 2 + TOOL_RESULT_CHARS * (gt?.steps.length ?? 0);
    return Math.ceil((rubric + task.question.length + (gt?.final_reply.length ?? 200) * 2 + steps) / CHARS_PER_TOKEN);
  });
  const table = loadPriceTable(input.env);
  const runs = taskCount / Math.max(1, input.tasks.length);
  return defaultJudges.map((judge) => {
    const inputTokens = Math.round(sum(perTask) * 2 * runs);
    const requests = taskCount * 2;
    const outputTokens = requests * JUDGE_OUTPUT_TOKENS;
    return { judge, requests, inputTokens, outputTokens, costUsd: costUsd(judge, { inputTokens, outputTokens, cachedTokens: 0 }, table) ?? null };
  });
}

const estimateAssumptions = [
  `text at ${CHARS_PER_TOKEN} characters per token; each tool result adds ${TOOL_RESULT_CHARS} characters to the history (no tool is called)`,
  "rounds per task from the ground truth's steps, bounded by --max-step (a task without ground truth: --max-step rounds)",
  'task images as the transport policy prepares them for the endpoint, re-sent with every request; images tools return are not counted',
  'no prompt-cache discount; judges: the default ensemble of m3 eval final, both metrics, every task of every model',
];

export async function estimateModels(input: EstimateInput): Promise<RunEstimate> {
  const models: ModelEstimate[] = [];
  for (const model of input.models) {
    const options = agentOptionsFrom(input.switches, input.limits, [], model);
    const context = { tools: input.tools, options, imageDirs: input.imageDirs, vendor: visionVendorOf(model.split(':')[0] ?? ''), acceptsImages: true };
    const perTask: TaskEstimate[] = [];
    for (const task of input.tasks) perTask.push(await estimateTask(task, input.taskSet.groundTruth.get(task.id), context));
    models.push(modelEstimate(model, perTask, input.trials, input.env));
  }
  const taskCount = sum(models.map((model) => model.tasks));
  return { models, judges: judgeEstimates(input, taskCount), toolCatalog: input.toolCatalog, assumptions: estimateAssumptions };
}

/** The tools of the latest finished run under the results folder (no server is started), or none. */
export function latestToolCatalog(resultsDir: string): { tools: CatalogTool[]; file: string | null } {
  const file = toolCatalogFiles(path.join(resultsDir, 'latest')).ours;
  if (!existsSync(file)) return { tools: [], file: null };
  const raw = loadJsonFile(file) as { tools?: CatalogTool[] };
  return { tools: Array.isArray(raw.tools) ? raw.tools : [], file };
}

const integer = new Intl.NumberFormat('en-US');
const usd = (value: number | null) => (value === null ? 'n/a (no price)' : `$${value.toFixed(4)}`);

/** What `m3 run --estimate` prints: one block per model, the judges, the assumptions. */
export function formatEstimate(estimate: RunEstimate): string {
  const lines = ['estimate (m3 run --estimate: no model request was made, no server was started)'];
  for (const model of estimate.models) {
    const imageTokens =
      model.imageTokensPerRequest === null ? 'no formula for this endpoint' : `${integer.format(Math.round(model.imageTokensPerRequest))} tokens`;
    lines.push(
      `${model.model}: ${model.tasks} task(s), ${model.requestsPerTask.toFixed(1)} requests per task (${integer.format(model.requests)} in all)`,
      `  images per request: ${model.imagesPerRequest.toFixed(1)}, ${integer.format(Math.round(model.imageBytesPerRequest))} bytes, ${imageTokens}`,
      `  tokens: ${integer.format(model.inputTokens)} input, ${integer.format(model.outputTokens)} output; cost ${usd(model.costUsd)}${model.price ? ` (${model.price})` : ''}`,
    );
  }
  lines.push('judges (m3 eval final --judges default, both metrics):');
  for (const judge of estimate.judges)
    lines.push(
      `  ${judge.judge}: ${integer.format(judge.requests)} requests, ${integer.format(judge.inputTokens)} input, ${integer.format(judge.outputTokens)} output tokens; cost ${usd(judge.costUsd)}`,
    );
  lines.push(`tools: ${estimate.toolCatalog ?? 'no tool catalog found (none under <results>/latest): tool definitions are not counted'}`);
  lines.push('assumptions:', ...estimate.assumptions.map((line) => `  ${line}`));
  return `${lines.join('\n')}\n`;
}
