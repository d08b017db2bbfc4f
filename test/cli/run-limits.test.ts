// `m3 run --token-limit --max-cost` as a user runs it: an `m3 run` (in this process:
// test/support/m3-in-process.ts) with the OpenAI driver against the wire-level mock LLM (usage
// figures scripted per reply), then `m3 summary` (text and --json) on its run folder. Checked: the
// --max-cost stop on stdout, in the trial manifest and in the batch manifest; the task the token
// limit stopped, counted by limit in the summary; the paid cost at the built-in price of gpt-4o.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeEntryArgs } from '../support/built-entry.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-run-limits-'));
let mock: MockLlm;
// Each reply: 600 input tokens (200 from the prompt cache), 100 output tokens. At gpt-4o's
// built-in price ($2.5 in, $1.25 cached, $10 out per 1M) that is $0.00225.
const usage = { inputTokens: 600, outputTokens: 100, cachedTokens: 200 };

beforeAll(async () => {
  mock = await startMockLlm({ respond: () => ({ toolCalls: [{ name: 'echo__echo', arguments: { text: 'again' } }], usage }) });
  // The echo fixture's transpiled twin when dist/ is fresh (test/support/built-entry.ts): through tsx each start transpiles it again.
  const server = { command: 'node', args: nodeEntryArgs('test/support/fixture-servers/echo.ts'), env: {} };
  writeFileSync(path.join(dir, 'echo.json'), JSON.stringify({ servers: { echo: server } }));
  const task = (id: string) => ({ id, type: 'text', prompt: 'echo', question: `Echo ${id} until told otherwise.` });
  writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify([task('t1'), task('t2'), task('t3')]));
}, 60_000);
afterAll(async () => {
  await mock?.close();
});

describe('m3 run --token-limit --max-cost', () => {
  it('stops a task at its token limit, stops scheduling at the run budget, and says so on stdout, in the manifests and in m3 summary', async () => {
    const runDir = path.join(dir, 'run');
    const run = await runM3InProcess(
      [
        'run',
        '--model',
        'openai:gpt-4o',
        '--tasks',
        path.join(dir, 'tasks.json'),
        '--config',
        path.join(dir, 'echo.json'),
        '--run-dir',
        runDir,
        '--run-id',
        'limits',
        '--concurrency',
        '1',
        // 700 tokens a reply: the third reply reaches 1,500 and the task stops there ($0.00675 paid),
        // which reaches the run's $0.004: the other two tasks never start.
        '--token-limit',
        '1500',
        '--max-cost',
        '0.004',
      ],
      { OPENAI_BASE_URL: mock.openAiBaseUrl, OPENAI_API_KEY: 'sk-test-openai-key-000000000000', M3_LLM_MAX_RETRIES: '0' },
    );
    expect(run.code, run.output).toBe(0);
    expect(mock.generations()).toHaveLength(3);
    expect(run.stdout).toMatch(/max cost: --max-cost \$0\.004 reached \(\$0\.0067 paid\): no new task was started; 2 task\(s\) not started/);
    expect(run.stdout).toMatch(/cost gpt-4o: \$0\.0067 paid; stopped by a limit: tokens 1, messages 0, cost 0/);

    const manifest = JSON.parse(readFileSync(path.join(runDir, 'gpt-4o_test_mcp_fuzzy.manifest.json'), 'utf8'));
    expect(manifest.counts).toMatchObject({ done: 1, notStarted: 2, limitTokens: 1, limitMessages: 0, limitCost: 0 });
    expect(manifest.cost.paidUsd).toBeCloseTo(0.00675, 10);
    expect(manifest.cost).toMatchObject({ savedUsd: 0, limited: { tokens: 1, messages: 0, cost: 0 }, paidTokens: { input: 1800, output: 300, cached: 600 } });
    expect(manifest.maxCost).toMatchObject({ limitUsd: 0.004, reached: true });
    const batchFile = readdirSync(runDir).find((name) => name.endsWith('.batch.json')) as string;
    expect(JSON.parse(readFileSync(path.join(runDir, batchFile), 'utf8')).maxCost).toMatchObject({
      reached: true,
      note: expect.stringContaining('2 task(s) not started'),
    });
    const predictions = JSON.parse(readFileSync(path.join(runDir, 'gpt-4o_test_mcp_fuzzy.json'), 'utf8'));
    expect(predictions).toEqual([expect.objectContaining({ id: 't1', end_status: 'limit_tokens', end_detail: '2,100 tokens reached the limit of 1,500' })]);

    const summary = await runM3InProcess(['summary', '--results', runDir, '--save', path.join(dir, 'save')]);
    expect(summary.code, summary.output).toBe(0);
    expect(summary.stdout).toContain('gpt-4o: limit_tokens 1');
    expect(summary.stdout).toMatch(/cost {10}gpt-4o: \$0\.0067 paid; stopped by a limit: tokens 1, messages 0, cost 0/);
    expect(summary.stdout).toContain('max cost      --max-cost $0.004 reached');
    // The estimate the run stored, beside what it used: 3 tasks estimated, 1 run (the budget stopped the rest).
    expect(summary.stdout).toMatch(/estimate {6}gpt-4o: input tokens [\d,]+ estimated vs 1,800 actual \([+-]\d+%\), output [\d,]+ vs 300/);
    const json = await runM3InProcess(['summary', '--results', runDir, '--json']);
    expect(json.code, json.output).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.endStatuses).toEqual([{ label: 'gpt-4o', counts: { limit_tokens: 1 } }]);
    expect(parsed.cost.cells).toEqual([expect.objectContaining({ label: 'gpt-4o', limited: { tokens: 1, messages: 0, cost: 0 }, savedUsd: 0 })]);
    expect(parsed.cost.maxCost).toMatchObject({ limitUsd: 0.004, reached: true });
    expect(parsed.cost.estimateVsActual).toEqual([
      expect.objectContaining({ label: 'gpt-4o', actual: expect.objectContaining({ inputTokens: 1800, outputTokens: 300 }) }),
    ]);
  }, 300_000);
});
