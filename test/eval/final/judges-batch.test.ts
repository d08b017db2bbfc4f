// `m3 eval final --batch` as a child process: three judges of three vendors (OpenAI, Anthropic,
// Gemini) asked through their batch APIs on the mock; the scores are those the synchronous
// judges give (test/eval/final/cli.test.ts), and no judge request goes the ordinary way.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runM3 } from '../../report/run-m3.js';
import { startMockLlm, type MockTurn, type RecordedRequest } from '../../support/mock-llm/index.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const work = mkdtempSync(path.join(tmpdir(), 'm3-eval-final-batch-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('m3 eval final --batch', () => {
  it('asks each judge through its batch API and scores as the synchronous judges do', async () => {
    const predFile = path.join(work, 'model-y_test_mcp_fuzzy.json');
    copyFileSync(path.join(fixtures, 'predictions.json'), predFile);
    const respond = (request: RecordedRequest): MockTurn => {
      if (JSON.stringify(request.body).includes('key reference steps')) return { text: '\\boxed{0.5}' };
      return { text: request.model === 'judge-c' ? '\\boxed{5}' : 'Planning 3, process 3, result 2. \\boxed{8}' };
    };
    const mock = await startMockLlm({ respond });
    const env = {
      OPENAI_API_KEY: 'sk-test-cli',
      OPENAI_BASE_URL: mock.openAiBaseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: mock.url,
      GEMINI_API_KEY: 'AIza-test',
      GEMINI_BASE_URL: mock.url,
    };
    const judges = 'openai:judge-a,anthropic:judge-b,gemini:judge-c';
    const args = ['eval', 'final', '--gt', path.join(fixtures, 'gt.json'), '--pred', predFile, '--judges', judges, '--retry-delay', '0'];
    try {
      const result = await runM3([...args, '--batch', '--batch-window', '200', '--batch-poll', '50'], env);
      expect(result.status, result.stderr).toBe(0);
      expect(mock.generations()).toHaveLength(0);
      // Two tasks with a prediction, two metrics each, three judges: 12 requests, all in batch jobs.
      expect(mock.batchLines()).toHaveLength(12);
      expect(new Set(mock.batches.jobs.map((job) => job.vendor))).toEqual(new Set(['openai', 'anthropic', 'gemini']));
      expect(mock.batches.jobs.every((job) => job.state === 'ended')).toBe(true);
      expect(result.stderr).toMatch(/batch \S+ \(anthropic:judge-b\): submitted \d request\(s\)/);
      const written = JSON.parse(readFileSync(path.join(work, 'model-y', 'taskcompletion.json'), 'utf8')) as {
        aggregate: Record<string, number>;
        pre_id: Record<string, { final: number }>;
      };
      expect(written.pre_id.f1?.final).toBeCloseTo(0.8, 12);
      expect(written.aggregate).toMatchObject({ num_total: 3, num_scored: 2 });
    } finally {
      await mock.close();
    }
  }, 240_000);
});
