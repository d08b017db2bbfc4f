// The noisy oracle's reply loses what its damaged calls backed: facts, repeated argument values,
// and, without facts, numbers and names in the share of the damaged calls (nested by rate).
import { describe, expect, it } from 'vitest';
import type { ReplayPlan } from '../../../src/llm/replay/plan.js';
import { perturbPlan } from '../../../src/llm/replay/perturb.js';
import { damageReply } from '../../../src/llm/replay/reply-damage.js';

const none = () => 1;

describe('noisy oracle reply damage', () => {
  it('removes the facts and the repeated argument values of a damaged call, whole words only', () => {
    const ocr = { name: 'ocr/perform_ocr', arguments: { input_data: './media/local/memo.png' }, replyFacts: ['ROOM 204'] };
    const add = { name: 'math/add', arguments: { a: 1204, b: 20 } };
    const reply = 'media/local/memo.png names ROOM 204; 1204 + 20 = 1224, not 204 or 2.04.';
    expect(damageReply(reply, [], [ocr, add], none)).toBe(reply);
    expect(damageReply(reply, [ocr], [ocr, add], none)).toBe(' names ; 1204 + 20 = 1224, not 204 or 2.04.');
    expect(damageReply(reply, [add], [ocr, add], none)).toBe('media/local/memo.png names ROOM 204; + = 1224, not 204 or 2.04.');
  });

  it('without facts, takes out more numbers and names as more calls are damaged, never fewer', () => {
    const plan: ReplayPlan = {
      steps: Array.from({ length: 8 }, (_, i) => [{ name: 'math/add', arguments: { x: `item-${i}` } }]),
      finalReply: 'Totals: 11, 22, 33, 44, 55, 66 and 77 for Paris, Oslo, Lyon and Madrid.',
    };
    const at = (drop: number) => perturbPlan(plan, 't', { seed: 5, drop, noise: 0, wrong: 0, merge: false }, ['math/add']).finalReply;
    const kept = (reply: string) => new Set(reply.match(/\d+|\p{Lu}\p{L}+/gu) ?? []);
    expect(at(0)).toBe(plan.finalReply);
    expect(kept(at(1)).size).toBe(0);
    let previous = kept(at(0));
    for (const drop of [0.2, 0.4, 0.6, 0.8, 1]) {
      const now = kept(at(drop));
      for (const text of now) expect(previous.has(text), `${text} at drop ${drop}`).toBe(true);
      previous = now;
    }
  });
});
