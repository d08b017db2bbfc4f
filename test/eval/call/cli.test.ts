// `m3 eval call` (in this process: test/support/m3-in-process.ts) and scripts/evaluate_call.sh
// (a real child) on the fixture predictions; the judge runs against the mock LLM server.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm } from '../../support/mock-llm/index.js';
import { lastJsonLine, runCommand } from '../../report/run-m3.js';
import { runM3InProcess } from '../../support/m3-in-process.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const catalog = path.join(fixtures, 'catalog-list-tools.json');

describe('m3 eval call', () => {
  let work = '';
  let predFile = '';
  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'm3-eval-call-'));
    predFile = path.join(work, 'model-x_test_mcp_fuzzy.json');
    copyFileSync(path.join(fixtures, 'predictions.json'), predFile);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('writes results/<model>/callanalysis.json beside the predictions and one JSON line on stdout', async () => {
    const result = await runM3InProcess(['eval', 'call', '--pred', predFile, '--catalog', catalog]);
    expect(result.code, result.stderr).toBe(0);
    const out = path.join(work, 'model-x', 'callanalysis.json');
    const written = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(written).slice(0, 5)).toEqual(['illegal_calling', 'unknown_tool', 'invalid_arguments', 'resource_not_found', 'success']);
    expect(written).toMatchObject({ illegal_calling: 2, unknown_tool: 3, invalid_arguments: 7, resource_not_found: 3, success: 2, unclassified: 1 });
    expect((written.per_call as unknown[]).length).toBe(16);
    expect(lastJsonLine(result)).toMatchObject({ wrote: out, success: 2, totals: { tasks: 3, calls: 16 } });
    expect(result.stderr).toContain('illegal calling in 2 task(s)');
  });

  it('asks the judge only for the undecided call', async () => {
    const mock = await startMockLlm();
    try {
      mock.enqueue({ text: '4' });
      const out = path.join(work, 'judged.json');
      const result = await runM3InProcess(['eval', 'call', '--pred', predFile, '--catalog', catalog, '--judge', 'openai:judge-a', '--out', out], {
        OPENAI_API_KEY: 'sk-test-cli',
        OPENAI_BASE_URL: mock.openAiBaseUrl,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(mock.generations()).toHaveLength(1);
      const written = JSON.parse(readFileSync(out, 'utf8')) as { success: number; per_call: Array<{ source: string; label: string }> };
      expect(written.success).toBe(3);
      expect(written.per_call.filter((record) => record.source === 'judge')).toEqual([expect.objectContaining({ label: 'success' })]);
    } finally {
      await mock.close();
    }
  }, 120_000);

  it('names the file and field of a broken prediction file', async () => {
    const result = await runM3InProcess(['eval', 'call', '--pred', path.join(fixtures, 'catalog-list-tools.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/catalog-list-tools\.json: at \$\[0\]: Invalid input/);
  });

  it('scripts/evaluate_call.sh evaluates every discovered model, skips finished ones, then builds the report', async () => {
    const env = { M3_RESULTS_DIR: work, M3_SAVE_DIR: path.join(work, 'save'), M3_CATALOG: catalog };
    rmSync(path.join(work, 'model-x'), { recursive: true, force: true });
    const first = await runCommand('bash', ['scripts/evaluate_call.sh'], env);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toContain('evaluate_call.sh: evaluated 1 model(s)');
    expect(existsSync(path.join(work, 'model-x', 'callanalysis.json'))).toBe(true);
    expect(existsSync(path.join(work, 'save', 'call_categories_model-x.png'))).toBe(true);
    expect(existsSync(path.join(work, 'save', 'mcp_tools_per_server.svg'))).toBe(true);
    const second = await runCommand('bash', ['scripts/evaluate_call.sh'], { ...env, M3_SKIP_REPORT: '1' });
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).toContain('skipping model-x');
  }, 240_000);
});
