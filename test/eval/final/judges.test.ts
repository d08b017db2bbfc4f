// The final-answer judge ensemble through the real OpenAI, Anthropic and Gemini drivers
// against the mock LLM server: boxed replies, a malformed and an out-of-range reply that are
// retried, a judge that fails, missing predictions, resume.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluateFinalAnswers, type EvaluateFinalOptions } from '../../../src/eval/final/evaluate.js';
import { loadPromptFile } from '../../../src/eval/final/judge-kit.js';
import { createDriver } from '../../../src/llm/registry.js';
import { loadGroundTruth, loadPredictions } from '../../../src/tasks/load.js';
import { startMockLlm, type MockLlm, type MockTurn, type RecordedRequest } from '../../support/mock-llm/index.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const groundTruth = loadGroundTruth(path.join(fixtures, 'gt.json'));
const predictions = loadPredictions(path.join(fixtures, 'predictions.json'));

type Metric = 'tc' | 'ig';
/** Replies per judge model, task and metric, consumed in order. */
type Script = Record<string, Partial<Record<string, Partial<Record<Metric, MockTurn[]>>>>>;

function requestText(request: RecordedRequest): string {
  return JSON.stringify(request.body);
}

function scriptedResponder(script: Script): (request: RecordedRequest) => MockTurn | undefined {
  return (request) => {
    const text = requestText(request);
    const metric: Metric = text.includes('key reference steps') ? 'ig' : 'tc';
    const task = /\\"id\\": \\"(f\d)\\"/.exec(text)?.[1] ?? '?';
    const queue = script[request.model ?? '']?.[task]?.[metric];
    const turn = queue?.shift();
    return turn ?? { fault: { kind: 'status', status: 500, message: `unscripted ${request.model} ${task} ${metric}` } };
  };
}

describe('judge ensemble against the mock LLM (openai, anthropic, gemini judges)', () => {
  let mock: MockLlm;
  let options: EvaluateFinalOptions;
  let script: Script;

  beforeEach(async () => {
    script = {};
    mock = await startMockLlm({ respond: (request) => scriptedResponder(script)(request) });
    const env = {
      OPENAI_API_KEY: 'sk-test-a',
      OPENAI_BASE_URL: mock.openAiBaseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-test-b',
      ANTHROPIC_BASE_URL: mock.url,
      GEMINI_API_KEY: 'AIza-test-c',
      GEMINI_BASE_URL: mock.url,
    };
    const judges = await Promise.all(['openai:judge-a', 'anthropic:judge-b', 'gemini:judge-c'].map((spec) => createDriver(spec, { env, timeoutMs: 10_000 })));
    options = {
      judges,
      prompts: { taskCompletion: loadPromptFile('task-completion.md'), informationGrounding: loadPromptFile('information-grounding.md') },
      attempts: 3,
      lenient: false,
      retryPolicy: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 10, timeoutMs: 10_000 },
      maxTokens: 256,
      retryDelayMs: 0,
      maxResultChars: 2000,
      concurrency: 2,
    };
  });
  afterEach(async () => {
    await mock.close();
  });

  it('scores each task with the trimmed mean, retries bad replies and lists failures and missing ids', async () => {
    script = {
      'judge-a': { f1: { tc: [{ text: '\\boxed{7}' }], ig: [{ text: '\\boxed{1.0}' }] }, f2: { tc: [{ text: '\\boxed{9}' }], ig: [{ text: '\\boxed{1}' }] } },
      'judge-b': {
        f1: { tc: [{ text: 'Planning 3/3, process 3/3, result 2/4. Total 8' }, { text: '\\boxed{8}' }], ig: [{ text: '\\boxed{0.5}' }] },
        f2: { tc: [{ text: '\\boxed{9}' }], ig: [{ text: '\\boxed{1}' }] },
      },
      'judge-c': { f1: { tc: [{ text: '\\boxed{12}' }, { text: 'Final: \\boxed{6}' }], ig: [{ text: '\\boxed{0.8}' }] }, f2: { tc: [] } },
    };
    const output = await evaluateFinalAnswers(groundTruth, predictions, options);

    const f1 = output.pre_id.f1;
    expect(f1?.final).toBeCloseTo(0.7, 12);
    expect(f1?.judges.map((judge) => [judge.name, judge.score, judge.attempts])).toEqual([
      ['openai:judge-a', 0.7, 1],
      ['anthropic:judge-b', 0.8, 2],
      ['gemini:judge-c', 0.6, 2],
    ]);
    expect(f1?.info_grounding?.final).toBeCloseTo(0.8, 12);
    expect(f1?.question_source).toBe('prediction');
    expect(output.per_id).toBe(output.pre_id);

    expect(output.pre_id.f2).toBeUndefined();
    expect(output.judge_failures).toEqual([
      expect.objectContaining({ id: 'f2', metric: 'task_completion', judge: 'gemini:judge-c', reason: expect.stringContaining('judge request failed') }),
    ]);
    expect(output.missing_predictions).toEqual(['f3']);
    expect(output.duplicate_gt_ids).toEqual(['f2']);
    expect(output.aggregate).toMatchObject({ num_total: 3, num_scored: 1, num_missing_predictions: 1, num_judge_failures: 1 });
    expect(output.aggregate.completion_rate).toBeCloseTo(0.7, 12);
    expect(output.aggregate.completion_rate_all).toBeCloseTo(0.7 / 3, 12);
    expect(output.aggregate.information_grounding_rate_all).toBeCloseTo(0.8 / 3, 12);
  });

  it('shows judges the fuzzy question the agent saw, the GT steps only for grounding, and no GT answer', async () => {
    const full: Partial<Record<Metric, MockTurn[]>> = { tc: [{ text: '\\boxed{5}' }], ig: [{ text: '\\boxed{0.5}' }] };
    script = { 'judge-a': { f1: structuredClone(full) }, 'judge-b': { f1: structuredClone(full) }, 'judge-c': { f1: structuredClone(full) } };
    const output = await evaluateFinalAnswers(
      groundTruth,
      predictions.filter((prediction) => prediction.id === 'f1'),
      options,
    );
    expect(output.pre_id.f1?.final).toBe(0.5);
    const bodies = mock.generations().map(requestText);
    expect(bodies).toHaveLength(6);
    for (const body of bodies) {
      expect(body).toContain('How tall is that famous iron tower in the picture?');
      expect(body).not.toContain('Use wiki/search and wiki/summary');
      expect(body).not.toContain('The Eiffel Tower in Paris is 330 metres tall');
    }
    const grounding = bodies.filter((body) => body.includes('key reference steps'));
    expect(grounding).toHaveLength(3);
    for (const body of grounding) expect(body).toContain('\\"reference\\"');
    const completion = bodies.filter((body) => !body.includes('key reference steps'));
    for (const body of completion) expect(body).not.toContain('\\"reference\\"');
  });

  it('keeps earlier scores on resume and judges only the rest', async () => {
    script = {
      'judge-a': { f2: { tc: [{ text: '\\boxed{10}' }], ig: [{ text: '\\boxed{1}' }] } },
      'judge-b': { f2: { tc: [{ text: '\\boxed{9}' }], ig: [{ text: '\\boxed{1}' }] } },
      'judge-c': { f2: { tc: [{ text: '\\boxed{8}' }], ig: [{ text: '\\boxed{0}' }] } },
    };
    const previous = { f1: { final: 0.4, judges: [] } };
    const output = await evaluateFinalAnswers(groundTruth, predictions, { ...options, previous });
    expect(mock.generations()).toHaveLength(6);
    expect(output.pre_id.f1).toEqual({ final: 0.4, judges: [] });
    expect(output.pre_id.f2?.final).toBeCloseTo(0.9, 12);
    expect(output.pre_id.f2?.info_grounding?.final).toBe(1);
    expect(output.aggregate.completion_rate).toBeCloseTo(0.65, 12);
    expect(output.aggregate.information_grounding_rate).toBe(1);
  });

  it('accepts an unboxed reply only in lenient mode, and flags it', async () => {
    const turns = (): Partial<Record<Metric, MockTurn[]>> => ({
      tc: [{ text: 'Planning 3/3, process 2/3, result 2/4. Overall 7' }],
      ig: [{ text: '\\boxed{0.5}' }],
    });
    script = { 'judge-a': { f1: turns() }, 'judge-b': { f1: turns() }, 'judge-c': { f1: turns() } };
    const output = await evaluateFinalAnswers(
      groundTruth,
      predictions.filter((prediction) => prediction.id === 'f1'),
      { ...options, lenient: true, attempts: 1 },
    );
    expect(output.pre_id.f1?.final).toBeCloseTo(0.7, 12);
    expect(output.pre_id.f1?.judges.every((judge) => judge.parse === 'lenient_last_number')).toBe(true);
    expect(output.meta.lenient).toBe(true);
  });
});
