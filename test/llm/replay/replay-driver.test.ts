import { describe, expect, it } from 'vitest';
import type { Message, ToolDefinition } from '../../../src/core/messages.js';
import { createReplayDriver } from '../../../src/llm/replay/driver.js';
import { perturbPlan } from '../../../src/llm/replay/perturb.js';
import type { GtTask } from '../../../src/tasks/schemas.js';

const task: GtTask = {
  id: 't1',
  question: 'q',
  final_reply: 'the answer',
  steps: [
    {
      step: 1,
      calls: [
        { name: 'math/add', arguments: { firstNumber: 1, secondNumber: 2 } },
        { name: 'math/mean', arguments: { numbers: [1, 2] } },
      ],
    },
    { step: 2, calls: [{ name: 'wiki/summary', arguments: { title: 'X' } }] },
  ],
};
const tools: ToolDefinition[] = [
  { name: 'math__add', canonicalName: 'math/add', description: '', inputSchema: {} },
  { name: 'math__mean', canonicalName: 'math/mean', description: '', inputSchema: {} },
];
const context = { env: {}, groundTruth: new Map([['t1', task]]), timeoutMs: 1000 };

function afterRounds(n: number): Message[] {
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'q' }] }];
  for (let i = 0; i < n; i += 1) {
    messages.push({ role: 'assistant', content: [], toolCalls: [{ id: `c${i}`, name: 'x', arguments: {} }] });
    messages.push({ role: 'tool', results: [{ callId: `c${i}`, name: 'x', content: [], isError: false }] });
  }
  return messages;
}

describe('replay driver', () => {
  it('answers each round with that step as parallel native calls, then the final reply', async () => {
    const driver = await createReplayDriver('gt', context);
    const request = (n: number) => ({ messages: afterRounds(n), tools, maxTokens: 100, context: { taskId: 't1' } });
    const first = await driver.generate(request(0));
    expect(first.toolCalls.map((call) => [call.name, call.arguments])).toEqual([
      ['math__add', { firstNumber: 1, secondNumber: 2 }],
      ['math__mean', { numbers: [1, 2] }],
    ]);
    const second = await driver.generate(request(1));
    // wiki/summary is not in the offered tools: the canonical name is kept so the record shows it.
    expect(second.toolCalls.map((call) => call.name)).toEqual(['wiki/summary']);
    const third = await driver.generate(request(2));
    expect(third).toMatchObject({ text: 'the answer', toolCalls: [], stopReason: 'end' });
    expect((await driver.generate({ ...request(0), toolChoice: 'none' })).text).toBe('the answer');
  });

  it('plans and ends rounds when stages are not merged', async () => {
    const driver = await createReplayDriver('gt', context);
    const base = { tools, maxTokens: 10 };
    expect((await driver.generate({ ...base, messages: afterRounds(0), context: { taskId: 't1', purpose: 'prepare' } })).text).toContain('math/mean');
    expect((await driver.generate({ ...base, messages: afterRounds(1), context: { taskId: 't1', purpose: 'end' } })).text).toBe('no');
    expect((await driver.generate({ ...base, messages: afterRounds(2), context: { taskId: 't1', purpose: 'end' } })).text).toBe('yes');
  });

  it('fails clearly for unknown tasks, modes and options', async () => {
    const driver = await createReplayDriver('gt', context);
    await expect(driver.generate({ messages: [], tools, maxTokens: 1, context: { taskId: 'nope' } })).rejects.toThrow('no trajectory for task "nope"');
    await expect(createReplayDriver('magic', context)).rejects.toThrow('unknown replay mode');
    await expect(createReplayDriver('gt?drop=2', context)).rejects.toThrow('between 0 and 1');
    await expect(createReplayDriver('gt', { env: {}, timeoutMs: 1 })).rejects.toThrow('--gt');
  });

  it('perturbs deterministically per seed and task, with strength controlling the damage', () => {
    const plan = { steps: Array.from({ length: 10 }, (_, i) => [{ name: 'math/add', arguments: { firstNumber: i, secondNumber: i } }]), finalReply: 'r' };
    const names = ['math/add', 'math/mean'];
    const a = perturbPlan(plan, 't', { seed: 3, drop: 0.5, noise: 0, wrong: 0, merge: false }, names);
    const b = perturbPlan(plan, 't', { seed: 3, drop: 0.5, noise: 0, wrong: 0, merge: false }, names);
    expect(a).toEqual(b);
    const count = (drop: number) => perturbPlan(plan, 't', { seed: 3, drop, noise: 0, wrong: 0, merge: false }, names).steps.flat().length;
    expect(count(0)).toBe(10);
    expect(count(1)).toBe(0);
    expect(count(0.5)).toBeLessThan(10);
    const merged = perturbPlan(plan, 't', { seed: 1, drop: 0, noise: 0, wrong: 0, merge: true }, names);
    expect(merged.steps).toHaveLength(1);
    const noisy = perturbPlan(plan, 't', { seed: 1, drop: 0, noise: 1, wrong: 1, merge: false }, names);
    expect(noisy.steps.flat().every((call) => call.name === 'math/mean')).toBe(true);
    expect(noisy.steps.flat()[0]?.arguments).not.toEqual(plan.steps[0]?.[0]?.arguments);
  });
});

describe('noisy oracle argument corruption', () => {
  it('keeps the folder and extension of corrupted paths', () => {
    const plan = { steps: [[{ name: 'excel/create_workbook', arguments: { filepath: './media/outputs/L1/people.xlsx', title: 'People' } }]], finalReply: 'r' };
    const [call] = perturbPlan(plan, 't', { seed: 2, drop: 0, noise: 1, wrong: 0, merge: false }, ['excel/create_workbook']).steps.flat();
    const args = call?.arguments as { filepath: string; title: string };
    expect(args.filepath).toMatch(/^\.\/media\/outputs\/L1\/people_x\d+\.xlsx$/);
    expect(args.title).toMatch(/^elpoeP_x\d+$/);
  });
});

describe('noisy oracle wrong tools', () => {
  it('draws a wrong tool from the servers the trajectory uses, and from the whole catalog only when those offer no other tool', () => {
    const plan = { steps: [[{ name: 'math/add', arguments: {} }], [{ name: 'ocr/perform_ocr', arguments: {} }]], finalReply: '' };
    const catalog = ['math/add', 'math/mean', 'ocr/perform_ocr', 'nasa-mcp/get_notifications', 'wiki/summary', 'okx/get_price'];
    const options = { drop: 0, noise: 0, wrong: 1, merge: false };
    for (let seed = 1; seed <= 40; seed += 1) {
      const names = perturbPlan(plan, `t${seed}`, { seed, ...options }, catalog)
        .steps.flat()
        .map((call) => call.name);
      for (const name of names) expect(['math/add', 'math/mean', 'ocr/perform_ocr']).toContain(name);
    }
    const lonely = { steps: [[{ name: 'math/add', arguments: {} }]], finalReply: '' };
    const drawn = new Set<string>();
    for (let seed = 1; seed <= 40; seed += 1)
      drawn.add(perturbPlan(lonely, `t${seed}`, { seed, ...options }, ['math/add', 'wiki/summary', 'okx/get_price']).steps[0]?.[0]?.name ?? '');
    expect([...drawn].sort()).toEqual(['okx/get_price', 'wiki/summary']);
  });
});
