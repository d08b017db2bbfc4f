// The call judge through the real OpenAI driver against the mock LLM server: digit parsing,
// a malformed reply followed by a good one, and a judge that errors (→ unclassified).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadToolCatalog } from '../../../src/eval/call/catalog.js';
import { evaluateCalls } from '../../../src/eval/call/evaluate.js';
import { callJudgeUserMessage, judgeCall, parseCallVerdict, type CallJudgeOptions } from '../../../src/eval/call/judge.js';
import { loadPromptFile } from '../../../src/eval/final/judge-kit.js';
import { createDriver } from '../../../src/llm/registry.js';
import { loadPredictions } from '../../../src/tasks/load.js';
import { startMockLlm, type MockLlm } from '../../support/mock-llm/index.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const policy = { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 10, timeoutMs: 10_000 };

describe('parseCallVerdict', () => {
  it('accepts one digit 1-4 on the first non-empty line only', () => {
    expect(parseCallVerdict('3')).toBe(3);
    expect(parseCallVerdict('\n  **2**\n')).toBe(2);
    expect(parseCallVerdict('4.')).toBe(4);
    expect(parseCallVerdict('5')).toBeUndefined();
    expect(parseCallVerdict('Category 2')).toBeUndefined();
    expect(parseCallVerdict('I would say\n3')).toBeUndefined();
    expect(parseCallVerdict('')).toBeUndefined();
  });
});

describe('call judge against the mock LLM', () => {
  let mock: MockLlm;
  let options: CallJudgeOptions;
  beforeEach(async () => {
    mock = await startMockLlm();
    const driver = await createDriver('openai:judge-a', { env: { OPENAI_API_KEY: 'sk-test-judge', OPENAI_BASE_URL: mock.openAiBaseUrl }, timeoutMs: 10_000 });
    options = { driver, systemPrompt: loadPromptFile('call-judge.md'), attempts: 3, retryPolicy: policy, maxTokens: 64, maxResultChars: 50 };
  });
  afterEach(async () => {
    await mock.close();
  });

  const call = { id: 't9', name: 'wiki/summary', arguments: { title: 'Eiffel Tower' }, result: `[Tool error] KeyError: 'extract' ${'x'.repeat(200)}` };

  it('retries a malformed reply and keeps both attempts as votes', async () => {
    mock.enqueue({ text: 'The arguments look wrong, so category 2.' }, { text: '2' });
    const judgement = await judgeCall(call, options);
    expect(judgement.label).toBe('invalid_arguments');
    expect(judgement.attempts).toHaveLength(2);
    expect(judgement.attempts[0]?.vote).toBeUndefined();
    expect(judgement.attempts[1]?.vote).toBe(2);
    const [first] = mock.generations();
    const body = JSON.stringify(first?.body);
    expect(body).toContain('strict auditor');
    expect(body).toContain('Output only one number among 1/2/3/4');
    expect(body).toContain('truncated, 183 more characters');
    expect(first?.model).toBe('judge-a');
  });

  it('gives up after the bounded number of malformed replies', async () => {
    mock.enqueue({ text: 'seven' }, { text: 'five' }, { text: 'no idea' });
    const judgement = await judgeCall(call, options);
    expect(judgement.label).toBeUndefined();
    expect(judgement.failure).toMatch(/no reply of the form 1-4 in 3 attempt/);
    expect(mock.generations()).toHaveLength(3);
  });

  it('records a judge that errors as unclassified instead of aborting the run', async () => {
    const predictions = loadPredictions(path.join(fixtures, 'predictions.json'));
    const catalog = loadToolCatalog(path.join(fixtures, 'catalog-list-tools.json'));
    mock.enqueue({ fault: { kind: 'status', status: 401, message: 'invalid api key' } });
    const analysis = await evaluateCalls(predictions, { catalog, judge: options });
    const judged = analysis.per_call.filter((record) => record.source === 'judge');
    expect(judged).toHaveLength(1);
    expect(judged[0]).toMatchObject({ id: 't2', label: 'unclassified', reason: 'judge_failed' });
    expect(judged[0]?.judge?.failure).toMatch(/judge request failed/);
    expect(analysis.unclassified_reasons).toEqual({ infrastructure: 1, judge_failed: 1 });
    expect(analysis.invalid_arguments).toBe(6);
    expect(analysis.meta.judge).toBe('openai:judge-a');
  });

  it('sends only the calls the rules leave open to the judge', async () => {
    const predictions = loadPredictions(path.join(fixtures, 'predictions.json'));
    const catalog = loadToolCatalog(path.join(fixtures, 'catalog-list-tools.json'));
    mock.enqueue({ text: '3' });
    const analysis = await evaluateCalls(predictions, { catalog, judge: options });
    expect(mock.generations()).toHaveLength(1);
    const judged = analysis.per_call.find((record) => record.source === 'judge');
    expect(judged).toMatchObject({ name: 'wiki/summary', label: 'resource_not_found', judge: { model: 'openai:judge-a', votes: [3] } });
    expect(analysis.resource_not_found).toBe(4);
    expect(analysis.invalid_arguments).toBe(6);
  });
});

describe('call judge message', () => {
  it('pretty-prints the call with its arguments and the cut result', () => {
    const text = callJudgeUserMessage({ id: '1', name: 'a/b', arguments: undefined, result: 'abcdef' }, 3);
    expect(text).toContain('"arguments": null');
    expect(text).toContain('abc… [truncated, 3 more characters]');
  });
});
