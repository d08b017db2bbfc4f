// The robustness conditions on an in-memory host: the same seed plants the same distractors,
// faults and injections; what they plant is marked; a fault is never an infrastructure failure;
// an injection into an image is drawn into its pixels.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isInfrastructureErrorCode } from '../../src/core/tool-result-contract.js';
import { plantDistractors, withDistractors } from '../../src/robustness/distractors.js';
import { withInjectedFaults } from '../../src/robustness/faults.js';
import { canaryFor, withInjections } from '../../src/robustness/injections.js';
import { parseCondition } from '../../src/runner/conditions.js';
import type { GtTask } from '../../src/tasks/schemas.js';
import { fakeHost, fakeTools } from './fake-host.js';

const gt: GtTask = {
  id: 't1',
  question: 'q',
  final_reply: 'done',
  steps: [
    { step: 1, calls: [{ name: 'web/search', arguments: { q: 'x' } }] },
    { step: 2, calls: [{ name: 'img/render', arguments: { width: 4 } }] },
  ],
};

describe('--condition parsing', () => {
  it('names each condition file-safely, composes them with +, and refuses bad values with the expected form', () => {
    expect(parseCondition('distractors=20').name).toBe('distractors=20');
    expect(parseCondition('distractors=4:lookalike').name).toBe('distractors=4_lookalike');
    expect(parseCondition('faults=0.1:429:timeout').name).toBe('faults=0.1_rate-limit_timeout');
    expect(parseCondition('inject=v1').name).toBe('inject=v1');
    const combined = parseCondition('distractors=20+faults=0.1');
    expect(combined.name).toBe('distractors=20+faults=0.1');
    expect(combined.parts.every((part) => part.taskHost)).toBe(true);
    expect(() => parseCondition('distractors=0')).toThrow(/whole number from 1 to 200/);
    expect(() => parseCondition('distractors=5:nearby')).toThrow(/mixed, lookalike, unrelated/);
    expect(() => parseCondition('faults=1.5')).toThrow(/probability in \(0, 1\]/);
    expect(() => parseCondition('faults=0.1:teapot')).toThrow(/unknown fault kind "teapot"/);
    expect(() => parseCondition('inject=v9')).toThrow(/suites v1/);
    expect(() => parseCondition('faults=0.1+faults=0.2')).toThrow(/faults is given twice/);
    expect(() => parseCondition('distractor=3')).toThrow(/unknown condition/);
  });
});

describe('distractors', () => {
  it('are the same for the same seed and task, differ with the seed, look like the GT tools and never clash', () => {
    const first = plantDistractors(fakeTools, gt, { count: 6, kind: 'mixed' }, 7, 't1');
    expect(plantDistractors(fakeTools, gt, { count: 6, kind: 'mixed' }, 7, 't1')).toEqual(first);
    expect(plantDistractors(fakeTools, gt, { count: 6, kind: 'mixed' }, 8, 't1').map((tool) => tool.canonicalName)).not.toEqual(
      first.map((tool) => tool.canonicalName),
    );
    expect(first).toHaveLength(6);
    const lookalikes = first.filter((tool) => tool.imitates.startsWith('lookalike of '));
    expect(lookalikes).toHaveLength(3);
    for (const tool of lookalikes) {
      const target = fakeTools.find((entry) => `lookalike of ${entry.canonicalName}` === tool.imitates);
      expect(['web/search', 'img/render']).toContain(target?.canonicalName);
      expect(tool.server).toBe(target?.server);
      expect(tool.canonicalName.startsWith(target?.canonicalName ?? '?')).toBe(true);
      expect(tool.inputSchema).toEqual(target?.inputSchema);
      expect(tool.description.endsWith(target?.description ?? '?')).toBe(true);
    }
    for (const tool of first.filter((entry) => entry.imitates.startsWith('unrelated copy of '))) expect(tool.server.endsWith('-archive')).toBe(true);
    const names = [...fakeTools, ...first].map((tool) => tool.functionName);
    expect(new Set(names).size).toBe(names.length);
  });

  it('are offered and resolved by the host view; a call to one never reaches a server and is marked', async () => {
    const host = fakeHost();
    const planted = plantDistractors(host.tools, gt, { count: 4, kind: 'lookalike' }, 1, 't1');
    const view = withDistractors(host, planted, 1, 't1');
    expect(view.tools.length).toBe(fakeTools.length + 4);
    const one = planted[0];
    if (!one) throw new Error('nothing planted');
    expect(view.findByFunctionName(one.functionName)?.canonicalName).toBe(one.canonicalName);
    const outcome = await view.callTool(one.canonicalName, { q: 'x' });
    expect(host.calls).toHaveLength(0);
    expect(outcome.condition).toEqual({ kind: 'distractor', detail: one.imitates });
    expect(outcome.isError ? outcome.errorCode : 'empty').toMatch(/distractor|empty/);
    const real = await view.callTool('web/search', { q: 'x' });
    expect(real.condition).toBeUndefined();
    expect(host.calls).toHaveLength(1);
  });
});

describe('injected faults', () => {
  it('fail about p of the calls, the same ones for the same seed, a retry draws again, and none is an infrastructure failure', async () => {
    const run = async (seed: number) => {
      const view = withInjectedFaults(fakeHost(), { probability: 0.5, kinds: ['timeout', 'rate-limit'] }, { taskId: 't1', seed });
      const outcomes = [];
      for (let index = 0; index < 200; index += 1) outcomes.push(await view.callTool('web/search', { q: `query ${index}` }));
      return outcomes;
    };
    const first = await run(3);
    const faulted = first.filter((outcome) => outcome.condition?.kind === 'injected_fault');
    expect(faulted.length).toBeGreaterThan(70);
    expect(faulted.length).toBeLessThan(130);
    for (const outcome of faulted) {
      expect(outcome.errorCode).toBe('injected_fault');
      expect(isInfrastructureErrorCode(outcome.errorCode)).toBe(false);
      expect(outcome.text).toMatch(/^\[Tool error\] (the request timed out|HTTP 429)/);
      expect(outcome.text).not.toMatch(/inject/i);
    }
    const pattern = (outcomes: typeof first) => outcomes.map((outcome) => (outcome.condition ? 1 : 0)).join('');
    expect(pattern(await run(3))).toBe(pattern(first));
    expect(pattern(await run(4))).not.toBe(pattern(first));

    const view = withInjectedFaults(fakeHost(), { probability: 0.5, kinds: ['reset'] }, { taskId: 't1', seed: 3 });
    const attempts = [];
    for (let attempt = 0; attempt < 12; attempt += 1) attempts.push((await view.callTool('web/search', { q: 'same' })).condition ? 1 : 0);
    expect(new Set(attempts).size).toBe(2);
  });
});

describe('injections', () => {
  it('append the instruction with its canary to text results and draw it into image results', async () => {
    const view = withInjections(fakeHost(), { suite: 'v1' }, gt, 11, 't1');
    const text = await view.callTool('web/search', { q: 'x' });
    const canary = canaryFor(11, 't1');
    expect(canary).toMatch(/^ZQ-[0-9A-F]{8}$/);
    expect(text.condition?.kind).toBe('injection');
    expect(text.condition?.channel).toBe('text');
    expect(text.condition?.canary).toBe(canary);
    expect(text.text).toMatch(/^\{"tool":"web\/search"/);
    expect(text.content[0]?.type === 'text' && text.content[0].text.includes(canary)).toBe(true);
    expect(text.text).toContain(canary);
    // The forbidden tool comes from a server the task's GT does not use.
    expect(['mail/send']).toContain(text.condition?.forbiddenTool);

    const image = await view.callTool('img/render', { width: 4 });
    expect(image.condition?.channel).toBe('image');
    const part = image.content.find((item) => item.type === 'image');
    if (part?.type !== 'image') throw new Error('no image');
    const decoded = await sharp(Buffer.from(part.data, 'base64')).raw().toBuffer({ resolveWithObject: true });
    expect(decoded.info.width).toBe(400);
    expect(decoded.info.height).toBeGreaterThan(200);
    // The band under the picture is white with dark text pixels.
    let dark = 0;
    for (let y = 205; y < decoded.info.height; y += 1)
      for (let x = 0; x < decoded.info.width; x += 1) if ((decoded.data[(y * decoded.info.width + x) * decoded.info.channels] ?? 255) < 80) dark += 1;
    expect(dark).toBeGreaterThan(200);

    const again = withInjections(fakeHost(), { suite: 'v1' }, gt, 11, 't1');
    expect((await again.callTool('web/search', { q: 'x' })).condition).toEqual(text.condition);
  });

  it('plant nothing into an error result', async () => {
    const failing = { ...fakeHost() };
    failing.callTool = async (name) => ({
      canonicalName: name,
      content: [{ type: 'text', text: '[Tool error] no' }],
      isError: true,
      errorCode: 'tool_error',
      text: '[Tool error] no',
      durationMs: 0,
    });
    const view = withInjections(failing, { suite: 'v1' }, gt, 1, 't1');
    expect((await view.callTool('web/search', {})).condition).toBeUndefined();
  });
});
