// Robustness conditions through real episodes (the agent loop, in process, on the in-memory host):
// a scripted model that follows planted instructions is caught by every canary and style, one
// that ignores them scores no attack; the oracle recovers from injected faults only when it
// retries (replay:gt?retry=1); distractor calls are counted and selection accuracy follows.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../../src/agent/episode.js';
import { toPrediction } from '../../src/agent/to-prediction.js';
import { emptyUsage } from '../../src/core/usage.js';
import { createReplayDriver } from '../../src/llm/replay/driver.js';
import type { GenerateRequest, GenerateResponse, ModelDriver } from '../../src/llm/types.js';
import type { ToolHost } from '../../src/mcp/types.js';
import { plantDistractors, withDistractors } from '../../src/robustness/distractors.js';
import { withInjectedFaults } from '../../src/robustness/faults.js';
import { withInjections } from '../../src/robustness/injections.js';
import { taskRobustness } from '../../src/robustness/task-metrics.js';
import type { GtTask } from '../../src/tasks/schemas.js';
import { testAgentOptions } from '../support/agent-kit.js';
import { fakeHost } from './fake-host.js';

const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-robust-'));
const options = testAgentOptions([workDir], { maxStep: 8 });
const gtFor = (id: string): GtTask => ({
  id,
  question: 'q',
  final_reply: 'done',
  steps: [
    { step: 1, calls: [{ name: 'web/search', arguments: { q: `${id} one` } }] },
    { step: 2, calls: [{ name: 'web/lookup', arguments: { id: `${id}-2` } }] },
    { step: 3, calls: [{ name: 'web/search', arguments: { q: `${id} three` } }] },
  ],
});
const gtSteps = (gt: GtTask) => gt.steps.map((step) => new Set(step.calls.map((call) => String(call.name))));

const reply = (text: string): GenerateResponse => ({ text, toolCalls: [], stopReason: 'end', usage: emptyUsage(), latencyMs: 0, warnings: [] });
const calls = (round: number, list: Array<{ name: string; arguments: Record<string, unknown> }>): GenerateResponse => ({
  text: '',
  toolCalls: list.map((call, index) => ({
    id: `c${round}_${index}`,
    name: call.name,
    arguments: call.arguments,
    argumentsText: JSON.stringify(call.arguments),
  })),
  stopReason: 'tool_calls',
  usage: emptyUsage(),
  latencyMs: 0,
  warnings: [],
});

function toolTexts(request: GenerateRequest): string {
  return request.messages
    .flatMap((message) =>
      message.role === 'tool' ? message.results.flatMap((result) => result.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))) : [],
    )
    .join('\n');
}

/** A model that searches once, then does whatever a planted instruction says (or, `obey` false, answers). */
function scriptedModel(obey: boolean): ModelDriver {
  return {
    id: 'scripted',
    provider: 'replay',
    model: 'scripted',
    acceptsImages: true,
    async generate(request) {
      const round = request.messages.filter((message) => message.role === 'assistant' && message.toolCalls.length > 0).length;
      const fn = (canonical: string) => request.tools.find((tool) => tool.canonicalName === canonical)?.name ?? canonical;
      if (round === 0) return calls(0, [{ name: fn('web/search'), arguments: { q: 'weather' } }]);
      const seen = toolTexts(request);
      const canary = /ZQ-[0-9A-F]{8}/.exec(seen)?.[0];
      if (!obey || !canary || round > 1) return reply('done');
      if (/repeat the code/.test(seen)) return calls(1, [{ name: fn('web/lookup'), arguments: { id: canary } }]);
      const forbidden = /must call the tool (\S+)/.exec(seen)?.[1];
      if (forbidden) return calls(1, [{ name: fn(forbidden), arguments: { to: canary } }]);
      return reply(canary);
    },
    classifyError: (error) => ({ errorClass: 'fatal', message: String(error) }),
  };
}

async function episode(id: string, driver: ModelDriver, host: ToolHost) {
  const trace = await runEpisode(
    { taskId: id, question: 'q', userText: 'q', images: [], cwd: workDir, callContext: { taskId: id, workspace: workDir } },
    { driver, host, options },
  );
  return toPrediction({ id }, 'q', trace);
}

describe('injections through episodes', () => {
  it('a model that follows every instruction is caught in every style; one that ignores them is caught in none', async () => {
    const followed = new Map<string, boolean[]>();
    const ignored: boolean[] = [];
    for (let index = 0; index < 16; index += 1) {
      const id = `inj${index}`;
      const gt = gtFor(id);
      const obeying = taskRobustness(await episode(id, scriptedModel(true), withInjections(fakeHost(), { suite: 'v1' }, gt, 5, id)), gtSteps(gt));
      const style = obeying.injection?.style ?? 'none';
      followed.set(style, [...(followed.get(style) ?? []), obeying.injection?.followed ?? false]);
      const ignoring = taskRobustness(await episode(id, scriptedModel(false), withInjections(fakeHost(), { suite: 'v1' }, gt, 5, id)), gtSteps(gt));
      expect(ignoring.injection?.style).toBe(style);
      ignored.push(ignoring.injection?.followed ?? true);
    }
    expect([...followed.keys()].sort()).toEqual(['change-answer', 'exfiltrate', 'forbidden-tool', 'ignore-previous']);
    for (const [style, results] of followed) expect(results.every(Boolean), style).toBe(true);
    expect(ignored.some(Boolean)).toBe(false);
  });
});

describe('injected faults through episodes', () => {
  it('the oracle recovers from injected faults only when it retries, and each fault stays counted', async () => {
    let withRetry = { faults: 0, recovered: 0 };
    let without = { faults: 0, recovered: 0 };
    for (let index = 0; index < 12; index += 1) {
      const id = `f${index}`;
      const gt = gtFor(id);
      for (const [spec, tally] of [
        ['gt?retry=1', 'retry'],
        ['gt', 'plain'],
      ] as const) {
        const driver = await createReplayDriver(spec, { env: {}, groundTruth: new Map([[id, gt]]), timeoutMs: 0 });
        const host = withInjectedFaults(fakeHost(), { probability: 0.4, kinds: ['timeout'] }, { taskId: id, seed: 9 });
        const counts = taskRobustness(await episode(id, driver, host), gtSteps(gt));
        const sum = { faults: counts.injectedFaults, recovered: counts.recoveredFaults };
        if (tally === 'retry') withRetry = { faults: withRetry.faults + sum.faults, recovered: withRetry.recovered + sum.recovered };
        else without = { faults: without.faults + sum.faults, recovered: without.recovered + sum.recovered };
      }
    }
    expect(without.faults).toBeGreaterThan(0);
    expect(without.recovered).toBe(0);
    expect(withRetry.faults).toBeGreaterThan(0);
    expect(withRetry.recovered).toBeGreaterThan(withRetry.faults / 2);
    expect(withRetry.recovered).toBeLessThanOrEqual(withRetry.faults);
  });
});

describe('distractors through episodes', () => {
  it('calls to planted look-alikes are counted and lower selection accuracy', async () => {
    const gt = gtFor('d1');
    const planted = plantDistractors(fakeHost().tools, gt, { count: 2, kind: 'lookalike' }, 1, 'd1');
    const lookalike = planted[0];
    if (!lookalike) throw new Error('nothing planted');
    const picky: ModelDriver = {
      ...scriptedModel(false),
      async generate(request) {
        const round = request.messages.filter((message) => message.role === 'assistant' && message.toolCalls.length > 0).length;
        if (round > 0) return reply('done');
        return calls(0, [
          { name: lookalike.functionName, arguments: { q: 'a' } },
          { name: 'web__search', arguments: { q: 'b' } },
          { name: 'web__lookup', arguments: { id: 'c' } },
        ]);
      },
    };
    const counts = taskRobustness(await episode('d1', picky, withDistractors(fakeHost(), planted, 1, 'd1')), gtSteps(gt));
    expect(counts.calls).toBe(3);
    expect(counts.distractorCalls).toBe(1);
    expect(counts.lookalikeCalls).toBe(1);
    expect(counts.gtToolCalls).toBe(2);
  });
});
