import { describe, expect, it } from 'vitest';
import { evaluateProxies, extractEntities, extractNumbers, proxyScores, rougeL, tokenF1 } from '../../../src/eval/final/proxies.js';
import { gtTaskSchema, predictionSchema } from '../../../src/tasks/schemas.js';

describe('token F1 and ROUGE-L', () => {
  it('scores an exact match 1 and a disjoint answer 0', () => {
    const text = 'The Eiffel Tower is 330 metres tall.';
    expect(tokenF1(text, text)).toBe(1);
    expect(rougeL(text, text)).toBe(1);
    expect(tokenF1('completely different words', text)).toBe(0);
    expect(rougeL('completely different words', text)).toBe(0);
  });

  it('ignores case and punctuation, and counts repeated tokens once each', () => {
    expect(tokenF1('the TOWER, the tower!', 'the tower')).toBeCloseTo((2 * 0.5 * 1) / 1.5, 12);
  });

  it('ROUGE-L rewards order: same tokens reversed score lower than in order', () => {
    const reference = 'a b c d';
    expect(rougeL('a b c d', reference)).toBe(1);
    expect(rougeL('d c b a', reference)).toBeCloseTo(0.25, 12);
    expect(tokenF1('d c b a', reference)).toBe(1);
  });
});

describe('number normalisation', () => {
  it('treats 1,234.50 and 1234.5 as the same number', () => {
    expect([...extractNumbers('It costs 1,234.50 dollars')]).toEqual(['1234.5']);
    expect(proxyScores('Total: 1234.5', 'The total is 1,234.50.').number_recall).toBe(1);
  });

  it('keeps signs only where a sign can be, so dates split into parts', () => {
    expect([...extractNumbers('-3 degrees on 2024-01-05')]).toEqual(['-3', '2024', '1', '5']);
    expect([...extractNumbers('between 10 and 20.0')]).toEqual(['10', '20']);
  });

  it('is null when the reference has no numbers', () => {
    expect(proxyScores('anything 5', 'no digits here').number_recall).toBeNull();
  });
});

describe('entity recall', () => {
  it('takes runs of capitalised words and quoted strings, without leading function words', () => {
    expect([...extractEntities('The Eiffel Tower stands in Paris. It was built for the "World\'s Fair".')]).toEqual(["world's fair", 'eiffel tower', 'paris']);
  });

  it('matches entities case-insensitively in the prediction', () => {
    const scores = proxyScores('the eiffel tower is in paris', 'The Eiffel Tower is in Paris, France.');
    expect(scores.entity_recall).toBeCloseTo(2 / 3, 12);
  });
});

describe('evaluateProxies', () => {
  const gt = [
    gtTaskSchema.parse({ id: 'a', final_reply: 'Bitcoin costs $64,250.00 on OKX.' }),
    gtTaskSchema.parse({ id: 'b', final_reply: 'The Eiffel Tower is 330 metres tall.' }),
    gtTaskSchema.parse({ id: 'c', final_reply: '' }),
  ];
  const predictions = [predictionSchema.parse({ id: 'a', final_reply: 'Bitcoin costs $64,250.00 on OKX.' })];

  it('scores present predictions, lists missing ones and averages over all ids with a reference', () => {
    const output = evaluateProxies(gt, predictions, { gt: 'gt.json', predictions: 'pred.json' });
    expect(output.kind).toBe('proxy');
    expect(output.per_id.a).toEqual({ token_f1: 1, rouge_l: 1, number_recall: 1, entity_recall: 1 });
    expect(output.missing_predictions).toEqual(['b', 'c']);
    expect(output.aggregate).toMatchObject({ num_total: 3, num_scored: 1, token_f1: 1, rouge_l: 1, token_f1_all: 0.5, number_recall_all: 0.5 });
    expect(output.note).toMatch(/not judge scores/);
  });
});
