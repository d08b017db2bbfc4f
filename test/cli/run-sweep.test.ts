// `m3 run --max-step 1,3 --condition none,tool-count-hint` (in this process, in a clean
// environment: test/support/m3-in-process.ts; its cells and files are the point, not its process)
// against the wire-level mock LLM and the real math server: four cells per model, each with its own
// prediction file and manifest (K and condition recorded); the hint reaches the model on the
// wire only in the hint cells; the task level and the report's sweep and condition tables pair
// the cells up.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTaskFiles } from '../../src/eval/task/run.js';
import { conditionDeltas, loadTaskResults, maxStepSweeps } from '../../src/report/task-results.js';
import { efficiencyTable } from '../../src/report/task-tables.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { repoRoot } from '../support/shared-assets.js';
import { nodeEntryArgs } from '../support/built-entry.js';
import { runM3InProcess } from '../support/m3-in-process.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-run-sweep-'));
const configFile = path.join(dir, 'servers.json');
const tasksFile = path.join(repoRoot, 'test/fixtures/tasks/math-gt.json');
const resultsDir = path.join(dir, 'results');
let mock: MockLlm;

beforeAll(async () => {
  mock = await startMockLlm({ fallback: { text: 'The median is 6.5.', usage: { inputTokens: 100, outputTokens: 10 } } });
  writeFileSync(configFile, JSON.stringify({ servers: { math: { command: 'node', args: nodeEntryArgs('servers/math/index.ts'), env: {} } } }));
});
afterAll(async () => {
  await mock?.close();
});

function runCli(extra: string[]): Promise<{ code: number | null; output: string }> {
  const args = [
    'run',
    '--model',
    'openai:mock-model',
    '--tasks',
    tasksFile,
    '--config',
    configFile,
    '--run-dir',
    resultsDir,
    '--overwrite',
    '--concurrency',
    '1',
    ...extra,
  ];
  const env = {
    M3_LLM_MAX_RETRIES: '0',
    OPENAI_BASE_URL: mock.openAiBaseUrl,
    OPENAI_API_KEY: 'sk-test-openai-key-000000000000',
  };
  return runM3InProcess(args, env, { cleanEnv: true });
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('m3 run: max-rounds sweep and the tool-count hint in one batch', () => {
  it('runs one cell per K and condition, records both, and sends the hint only where asked', async () => {
    const { code, output } = await runCli(['--max-step', '1,3', '--condition', 'none,tool-count-hint']);
    expect(code, output).toBe(0);
    const cells = [
      ['mock-model.k1', 1, 'baseline'],
      ['mock-model+tool-count-hint.k1', 1, 'tool-count-hint'],
      ['mock-model.k3', 3, 'baseline'],
      ['mock-model+tool-count-hint.k3', 3, 'tool-count-hint'],
    ] as const;
    for (const [label, maxStep, condition] of cells) {
      const predictions = readJson(path.join(resultsDir, `${label}_test_mcp_fuzzy.json`)) as Array<{ id: string }>;
      expect(predictions.map((record) => record.id).sort()).toEqual(['math-0001', 'math-0002']);
      const manifest = readJson(path.join(resultsDir, `${label}_test_mcp_fuzzy.manifest.json`));
      expect(manifest).toMatchObject({ model: 'openai:mock-model', modelLabel: label, options: { maxStep } });
      expect(manifest.condition?.name).toBe(condition);
    }
    // Every task is asked twice per condition; the hint states the GT's call count (3 and 1).
    const bodies = mock.generations().map((request) => JSON.stringify(request.body));
    const hinted = (hint: string) => bodies.filter((body) => body.includes(hint)).length;
    expect(hinted('This task can be solved with 3 tool call(s)')).toBeGreaterThanOrEqual(2);
    expect(hinted('This task can be solved with 1 tool call(s)')).toBeGreaterThanOrEqual(2);
    const firstAsks = bodies.filter((body) => body.includes('Which value occurs most often'));
    expect(firstAsks.some((body) => !body.includes('[hint] This task can be solved'))).toBe(true);

    for (const [label] of cells) {
      await runTaskFiles({ gtFile: tasksFile, predFile: path.join(resultsDir, `${label}_test_mcp_fuzzy.json`) });
      expect(existsSync(path.join(resultsDir, label, 'task_eval.json')), label).toBe(true);
    }
    const results = loadTaskResults(resultsDir);
    // Tokens per task come from the run store: 110 per model request, every request answered by the mock.
    for (const result of results) {
      expect(result.data.aggregate.tokens?.tasks, result.dir).toBe(2);
      expect((result.data.aggregate.tokens?.mean_total ?? 0) % 110, result.dir).toBe(0);
      expect(result.data.aggregate.tokens?.mean_total, result.dir).toBeGreaterThan(0);
    }
    const efficiency = efficiencyTable(results);
    expect(efficiency?.rows.length).toBeGreaterThanOrEqual(4);
    for (const row of efficiency?.rows ?? []) expect(row[4]).toBeGreaterThanOrEqual(0);
    expect(efficiency?.rows.some((row) => row[4] === 1)).toBe(true);
    const sweeps = maxStepSweeps(results);
    expect([...sweeps.keys()].sort()).toEqual(['openai:mock-model', 'openai:mock-model [tool-count-hint]']);
    expect(sweeps.get('openai:mock-model')?.map((point) => [point.maxStep, point.dir, point.tasks])).toEqual([
      [1, 'mock-model.k1', 2],
      [3, 'mock-model.k3', 2],
    ]);
    const deltas = conditionDeltas(results);
    expect(deltas.map((delta) => [delta.dir, delta.baselineDir, delta.commonTasks]).sort()).toEqual([
      ['mock-model+tool-count-hint.k1', 'mock-model.k1', 2],
      ['mock-model+tool-count-hint.k3', 'mock-model.k3', 2],
    ]);
  }, 300_000);

  it('refuses an unknown condition and a malformed K list before anything starts', async () => {
    const badCondition = await runCli(['--condition', 'images-of']);
    expect(badCondition.code).toBe(2);
    expect(badCondition.output).toContain('unknown condition "images-of"');
    const badSteps = await runCli(['--max-step', '2,x']);
    expect(badSteps.code).toBe(2);
    expect(badSteps.output).toContain('--max-step "2,x"');
  }, 120_000);
});
