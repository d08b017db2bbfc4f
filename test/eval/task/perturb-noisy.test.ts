// The noisy oracle (replay:noisy) across damage levels on the bundled local suite: its plans at
// 0, ½, 1 (the defaults), 2, 3 and 4 times the default rates, written as prediction files and
// scored by every layer — step recall, call success, CV, the answer proxies, task success. Its
// final answer is damaged with its calls, so every layer falls monotonically with the damage;
// before, the answer was the GT reply at every level and the answer layers stayed near 100 %.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'lossless-json';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateCalls } from '../../../src/eval/call/evaluate.js';
import { runCvFiles } from '../../../src/eval/cv/run.js';
import { EmbeddingCache } from '../../../src/eval/embed/cache.js';
import { createHashgramEmbedder } from '../../../src/eval/embed/hashgram.js';
import { proxyScores } from '../../../src/eval/final/proxies.js';
import { runStepEvaluation } from '../../../src/eval/step/evaluate.js';
import { loadTrajectories } from '../../../src/eval/step/trajectory.js';
import { runTaskFiles } from '../../../src/eval/task/run.js';
import { planFromGroundTruth } from '../../../src/llm/replay/plan.js';
import { perturbPlan } from '../../../src/llm/replay/perturb.js';
import { loadGroundTruth, loadPredictions } from '../../../src/tasks/load.js';
import type { GtTask } from '../../../src/tasks/schemas.js';
import { repoRoot } from '../../support/shared-assets.js';

const gtFile = path.join(repoRoot, 'json/m3_local_GT.json');
const levels = [0, 0.5, 1, 2, 3, 4];
const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-noisy-levels-'));
const embedder = createHashgramEmbedder();
const cache = EmbeddingCache.memory(embedder.id);

const layers = [
  'step_recall',
  'call_success',
  'cv_perception_recall',
  'cv_visual_reasoning',
  'token_f1',
  'number_recall',
  'entity_recall',
  'task_success',
  'answer_hit',
] as const;
type Layer = (typeof layers)[number];

/** replay:noisy's defaults (driver.ts) scaled by the level, each rate capped at 1. */
function optionsAt(level: number) {
  return { seed: 1, drop: Math.min(1, 0.2 * level), noise: Math.min(1, 0.25 * level), wrong: Math.min(1, 0.1 * level), merge: false };
}

/** A call by task, tool and arguments: how a designed failure is found again in a perturbed plan. */
function callKey(taskId: string, call: { name?: string | null; arguments?: unknown }): string {
  return `${taskId}:${String(call.name ?? '').trim()}:${JSON.stringify(call.arguments ?? null)}`;
}

function mean(values: ReadonlyArray<number | null>): number {
  const present = values.filter((value): value is number => value !== null);
  return present.reduce((sum, value) => sum + value, 0) / present.length;
}

describe('replay:noisy damages its answer with its calls, so every layer falls with the damage', () => {
  let gt: GtTask[];
  let designed: Set<string>;
  let toolNames: string[];
  const rows: Array<Record<Layer, number>> = [];
  const replies: Array<Map<string, string>> = [];
  /** Per level and task: the keys of the calls the noisy oracle made unchanged. */
  const madeCalls: Array<Map<string, Set<string>>> = [];

  /** The noisy oracle's trajectories as a prediction file: a designed failure fails, every other call returns JSON. */
  function writePredictions(level: number, file: string): Map<string, string> {
    const byId = new Map<string, string>();
    const made = new Map<string, Set<string>>();
    madeCalls.push(made);
    const records = gt.map((task) => {
      const plan = perturbPlan(planFromGroundTruth(task), task.id, optionsAt(level), toolNames);
      byId.set(task.id, plan.finalReply);
      made.set(task.id, new Set(plan.steps.flat().map((call) => callKey(task.id, call))));
      const steps = plan.steps.map((calls, index) => ({
        step: index + 1,
        calls: calls.map((call) => ({
          name: call.name,
          arguments: call.arguments,
          result: designed.has(callKey(task.id, call)) ? '[Tool error] ENOENT: no such file or directory' : '{"status": "done"}',
        })),
      }));
      return { id: task.id, type: task.type, steps, num_step: steps.length, final_reply: plan.finalReply };
    });
    writeFileSync(file, stringify(records) ?? '[]');
    return byId;
  }

  async function scoreLevel(level: number): Promise<Record<Layer, number>> {
    const cell = path.join(dir, `level-${level}`);
    mkdirSync(cell, { recursive: true });
    const predFile = path.join(cell, 'noisy_predictions.json');
    const byId = writePredictions(level, predFile);
    replies.push(byId);
    const step = await runStepEvaluation({ gt: loadTrajectories(gtFile, 'gt').byId, pred: loadTrajectories(predFile, 'pred').byId, embedder, cache });
    const calls = await evaluateCalls(loadPredictions(predFile));
    const cv = await runCvFiles({ gtFile, predFile, outputDir: path.join(cell, 'cv'), embedder, mode: 'default', tauStrong: 0.8, tauWeak: 0.6 });
    const { document } = await runTaskFiles({ gtFile, predFile, outputDir: path.join(cell, 'task') });
    const proxies = gt.map((task) => proxyScores(byId.get(task.id) ?? '', task.final_reply));
    const gtCalls = gt.reduce((sum, task) => sum + task.steps.reduce((inner, s) => inner + s.calls.length, 0), 0);
    return {
      step_recall: step.aggregate.recall,
      call_success: calls.success / gtCalls,
      cv_perception_recall: cv.evaluation.aggregate.perception_recall_avg,
      cv_visual_reasoning: cv.evaluation.aggregate.visual_reasoning_ability ?? Number.NaN,
      token_f1: mean(proxies.map((score) => score.token_f1)),
      number_recall: mean(proxies.map((score) => score.number_recall)),
      entity_recall: mean(proxies.map((score) => score.entity_recall)),
      task_success: document.aggregate.task_success_rate.rate ?? Number.NaN,
      answer_hit: document.aggregate.answer_hit_rate.rate ?? Number.NaN,
    };
  }

  beforeAll(async () => {
    gt = loadGroundTruth(gtFile);
    toolNames = [...new Set(gt.flatMap((task) => task.steps.flatMap((s) => s.calls.map((call) => String(call.name)))))];
    designed = new Set(gt.flatMap((task) => task.steps.flatMap((s) => s.calls.flatMap((call) => (call.expect_error ? [callKey(task.id, call)] : [])))));
    for (const level of levels) rows.push(await scoreLevel(level));
  }, 300_000);

  it.each(layers)('%s never rises from one level to the next and ends lower than it started', (layer) => {
    const values = rows.map((row) => row[layer]);
    const trace = `${layer} at levels ${levels.join(', ')}: ${values.map((value) => value.toFixed(4)).join(', ')}`;
    for (const value of values) expect(Number.isFinite(value), trace).toBe(true);
    for (let index = 1; index < values.length; index += 1) expect(values[index], trace).toBeLessThanOrEqual((values[index - 1] ?? 0) + 1e-12);
    expect(values.at(-1), trace).toBeLessThan((values[0] ?? 0) - 0.05);
  });

  it('keeps the GT reply exactly when no call is damaged, and damages it at the default rates', () => {
    for (const task of gt) expect(replies[0]?.get(task.id), task.id).toBe(task.final_reply);
    const atDefaults = replies[levels.indexOf(1)];
    const changed = gt.filter((task) => atDefaults?.get(task.id) !== task.final_reply).length;
    expect(changed).toBeGreaterThan(gt.length / 2);
  });

  it('takes out of the reply every fact whose call was dropped or damaged, and keeps the reply whole when no call was', () => {
    let damagedFacts = 0;
    levels.forEach((level, index) => {
      for (const task of gt) {
        const reply = replies[index]?.get(task.id) ?? '';
        const made = madeCalls[index]?.get(task.id) ?? new Set<string>();
        const intact = (call: { name?: string | null; arguments?: unknown } | undefined) => call !== undefined && made.has(callKey(task.id, call));
        if (task.steps.every((s) => s.calls.every(intact))) expect(reply, `${task.id} at level ${level}`).toBe(task.final_reply);
        for (const fact of task.facts ?? []) {
          if (fact.reply === undefined || intact(task.steps[fact.step - 1]?.calls[fact.call])) continue;
          damagedFacts += 1;
          expect(reply.toLowerCase(), `${task.id} at level ${level}: "${fact.reply}" came from a damaged call`).not.toContain(fact.reply.toLowerCase());
        }
      }
    });
    expect(damagedFacts).toBeGreaterThan(100);
  });
});
