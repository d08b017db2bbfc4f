// `m3 eval final` (in this process: test/support/m3-in-process.ts) and
// scripts/evaluate_final_answer.sh (a real child): proxies when no judge is configured, the judge
// ensemble against the mock LLM server (with resume).
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockTurn, type RecordedRequest } from '../../support/mock-llm/index.js';
import { lastJsonLine, runCommand } from '../../report/run-m3.js';
import { runM3InProcess } from '../../support/m3-in-process.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const gtFile = path.join(fixtures, 'gt.json');

describe('m3 eval final', () => {
  let work = '';
  let predFile = '';
  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'm3-eval-final-'));
    predFile = path.join(work, 'model-y_test_mcp_fuzzy.json');
    copyFileSync(path.join(fixtures, 'predictions.json'), predFile);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('computes labelled proxies when no judge is given', async () => {
    const result = await runM3InProcess(['eval', 'final', '--gt', gtFile, '--pred', predFile]);
    expect(result.code, result.stderr).toBe(0);
    const out = path.join(work, 'model-y', 'final_proxy.json');
    const written = JSON.parse(readFileSync(out, 'utf8')) as { kind: string; aggregate: Record<string, number>; missing_predictions: string[] };
    expect(written.kind).toBe('proxy');
    // f1 names both GT numbers; f2 misses "0.5" of {0.5, 64250, 32125} (written 64,250.0 and $32,125).
    expect(written.aggregate).toMatchObject({ num_total: 3, num_scored: 2 });
    expect(written.aggregate.number_recall).toBeCloseTo(5 / 6, 12);
    expect(written.missing_predictions).toEqual(['f3']);
    expect(existsSync(path.join(work, 'model-y', 'taskcompletion.json'))).toBe(false);
    expect(lastJsonLine(result)).toMatchObject({ wrote: out, kind: 'proxy' });
  });

  it('runs three judges against the mock and resumes without asking again', async () => {
    // Every judge answers TC 8 and IG 0.5, except judge-c, whose TC is 5: trimmed mean 0.8.
    const respond = (request: RecordedRequest): MockTurn => {
      const grounding = JSON.stringify(request.body).includes('key reference steps');
      if (grounding) return { text: '\\boxed{0.5}' };
      return { text: request.model === 'judge-c' ? '\\boxed{5}' : 'Planning 3, process 3, result 2. \\boxed{8}' };
    };
    const mock = await startMockLlm({ respond });
    const env = { OPENAI_API_KEY: 'sk-test-cli', OPENAI_BASE_URL: mock.openAiBaseUrl, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: mock.url };
    const args = ['eval', 'final', '--gt', gtFile, '--pred', predFile, '--judges', 'openai:judge-a,anthropic:judge-b,openai:judge-c', '--retry-delay', '0'];
    try {
      const first = await runM3InProcess(args, env);
      expect(first.code, first.stderr).toBe(0);
      expect(mock.generations()).toHaveLength(12);
      const out = path.join(work, 'model-y', 'taskcompletion.json');
      const written = JSON.parse(readFileSync(out, 'utf8')) as {
        aggregate: Record<string, number>;
        pre_id: Record<string, { final: number }>;
        per_id: unknown;
      };
      expect(written.pre_id.f1?.final).toBeCloseTo(0.8, 12);
      expect(written.per_id).toEqual(written.pre_id);
      expect(written.aggregate).toMatchObject({ num_total: 3, num_scored: 2, num_missing_predictions: 1 });
      expect(written.aggregate.completion_rate_all).toBeCloseTo(1.6 / 3, 12);
      expect(lastJsonLine(first)).toMatchObject({ wrote: out, num_scored: 2 });

      const second = await runM3InProcess(args, env);
      expect(second.code, second.stderr).toBe(0);
      expect(mock.generations()).toHaveLength(12);
      expect(second.stderr).toContain('resuming: 2 task(s) already scored');
    } finally {
      await mock.close();
    }
  }, 240_000);

  it('rejects a malformed judge list with the option name', async () => {
    const result = await runM3InProcess(['eval', 'final', '--gt', gtFile, '--pred', predFile, '--judges', 'openai:a,,openai:b']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--judges "openai:a,,openai:b": empty entry');
  });

  it('scripts/evaluate_final_answer.sh falls back to proxies without M3_JUDGES and builds the report', async () => {
    const env = { M3_RESULTS_DIR: work, M3_SAVE_DIR: path.join(work, 'save'), GT_PATH: gtFile, M3_JUDGES: '' };
    const result = await runCommand('bash', ['scripts/evaluate_final_answer.sh'], env);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain('M3_JUDGES is not set: computing deterministic proxies');
    expect(existsSync(path.join(work, 'model-y', 'final_proxy.json'))).toBe(true);
    const html = readFileSync(path.join(work, 'save', 'report.html'), 'utf8');
    expect(html).toContain('Final answer: deterministic proxies (not judge scores)');
    expect(html).toContain('Per-tier breakdown');
  }, 240_000);
});
