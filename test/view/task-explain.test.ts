// The task page's data explains the score (issue 33 item 1), on a real store and the real step
// evaluator's output (explain-fixture.ts): the question in both forms, the task image as sent,
// success by the one rule with each check's reason, the near miss's similarity recomputed from
// the evaluator's embedding cache, the request as the model received it, the header counts.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from '../../src/eval/embed/registry.js';
import { serializeArguments } from '../../src/eval/step/serialize.js';
import { cosineSimilarity } from '../../src/eval/step/similarity.js';
import { taskPage } from '../../src/view/task-page.js';
import { buildExplainFixture, gtArguments, nearArguments, runId, type ExplainFixture } from './explain-fixture.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-view-explain-'));
let fixture: ExplainFixture;

beforeAll(async () => {
  fixture = await buildExplainFixture(dir);
}, 60_000);

afterAll(() => {
  fixture?.store.close();
  rmSync(dir, { recursive: true, force: true });
});

const page = (taskId: string) => taskPage({ store: fixture.store, resultsDir: fixture.resultsDir }, runId, taskId);

describe('the task page explains the score', () => {
  it('fails the near miss by its checks, each with its reason', () => {
    const { success } = page('near');
    expect(success.passed).toBe(false);
    expect(success.rule).toBe('rules+answer');
    expect(success.why).toBe('2 of 2 check(s) failed');
    expect(success.checks.map((check) => [check.kind, check.passed])).toEqual([
      ['rule', false],
      ['answer', false],
    ]);
    for (const check of success.checks) expect(check.reason).toMatch(/180/);
  });

  it('passes the exact task by the step rule, saying what it read', () => {
    const { success } = page('exact');
    expect(success).toMatchObject({ rule: 'step', passed: true, checks: [], step: { recall: 1, precision: 1 } });
    expect(success.why).toBe('step rule: recall 1.000 and precision 1.000 are both 1');
  });

  it('pairs the unmatched GT call with its best same-tool call and the similarity from the embedding cache', async () => {
    const { alignment } = page('near');
    if ('missing' in alignment) throw new Error(alignment.missing);
    const [gtText, predText] = [serializeArguments(gtArguments), serializeArguments(nearArguments)];
    const [a, b] = await createEmbedder('hashgram-v1').embed([gtText, predText]);
    const expected = cosineSimilarity(a!, b!);
    expect(expected).toBeLessThan(0.6);
    expect(alignment.counts).toMatchObject({ matched: 0, missed: 1, extra: 1 });
    expect(alignment.best).toHaveLength(1);
    const [line] = alignment.best;
    expect(line).toMatchObject({ gt: 0, pred: 0, decision: 'unmatched' });
    expect(line!.similarity).toBeCloseTo(expected, 9);
    expect(line!.reason).toBe(`best math/add call #0: similarity ${expected.toFixed(3)} < τ_weak 0.6`);
  });

  it('marks a strong match with the threshold it cleared', () => {
    const { alignment } = page('exact');
    if ('missing' in alignment) throw new Error(alignment.missing);
    expect(alignment.best).toEqual([{ gt: 0, pred: 0, similarity: 1, decision: 'strong', reason: 'similarity 1.000 ≥ τ_strong 0.8', marks: [] }]);
  });

  it('shows the question in both forms and the task image as sent', () => {
    const data = page('near');
    expect(data.question).toEqual({
      asked: 'What do these two numbers on the picture add up to?',
      gt: 'Compute 13 + 5 with the math server and state the total.',
      gtMissing: null,
    });
    expect(data.taskImages).toEqual([
      { origin: 'task', source: fixture.imageFile, width: 64, height: 32, mediaType: 'image/png', bytes: fixture.imageBytes, status: 'sent' },
    ]);
  });

  it('summarises each request as the model received it, with its price', () => {
    const [call] = page('near').modelCalls;
    expect(call!.request).toEqual({
      system: null,
      messages: [
        { role: 'system', parts: [{ kind: 'text', text: 'You are a careful assistant with tools.' }] },
        {
          role: 'user',
          parts: [
            { kind: 'text', text: 'What do these two numbers on the picture add up to?' },
            { kind: 'image', text: `image image/png, ${fixture.imageBytes} bytes` },
          ],
        },
      ],
      tools: ['math__add', 'math__multiply'],
    });
    // gpt-4o-mini at the default table: $0.15 / $0.60 per million input / output tokens.
    expect(call!.costUsd).toBeCloseTo((1200 * 0.15 + 40 * 0.6) / 1e6, 12);
  });

  it('counts in the header what the body shows', () => {
    expect(page('near').shown).toEqual({ rounds: 1, toolCalls: 1, modelCalls: 1 });
  });
});
