// When every task of a run fails for infrastructure reasons, nothing may look scored: the
// prediction file the summary names must exist (a valid, empty array), `m3 run` and
// `scripts/benchmark_fuzzy.sh` must exit non-zero saying why, and no evaluation may print a
// score of 0 nobody earned. The run still writes its tool surface in the reference's
// `mcp_tools_with_desc.json` layout, keeping category labels an earlier pass added.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../support/m3-child.js';
import { distIsFresh, nodeEntryArgs } from '../support/built-entry.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-allinfra-'));
const resultsDir = path.join(dir, 'results');
const saveDir = path.join(dir, 'save');
const configFile = path.join(dir, 'servers.json');
const tasksFile = path.join(dir, 'tasks.json');

writeFileSync(configFile, JSON.stringify({ servers: { echo: { command: 'node', args: nodeEntryArgs('test/support/fixture-servers/echo.ts') } } }));
// Every task needs a server that is not configured: each ends as an infrastructure failure.
writeFileSync(
  tasksFile,
  JSON.stringify(
    ['a', 'b', 'c'].map((id) => ({
      id,
      question: `weather ${id}?`,
      final_reply: 'sunny',
      steps: [{ step: 1, calls: [{ name: 'weather/get_weather', arguments: { location: id } }] }],
    })),
  ),
);

function runScript() {
  return runCommand('bash', ['scripts/benchmark_fuzzy.sh', '--run-id', 'allinfra', '--config', configFile, '--store', path.join(dir, 'store.sqlite')], {
    M3_MODELS: 'replay:gt',
    M3_TASKS: tasksFile,
    M3_GT: tasksFile,
    M3_RESULTS_DIR: resultsDir,
    M3_SAVE_DIR: saveDir,
    M3_SKIP_ASSETS: '1',
    // The script's `m3` from dist/ when it is fresh, as the test's own children run (scripts/lib.sh).
    M3_USE_DIST: distIsFresh() ? '1' : '0',
  });
}

describe('a run in which every task is an infrastructure failure', () => {
  it('writes an empty prediction file and the reference catalog, and the benchmark script exits non-zero', async () => {
    // A labelled catalog from an earlier pass (the reference's classifier adds `catalogry`).
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(
      path.join(resultsDir, 'mcp_tools_with_desc.json'),
      JSON.stringify({ echo: { echo: { description: 'old text', catalogry: 'Office Automation' }, vanished: { description: 'gone', catalogry: 'Health' } } }),
    );
    const { code, output } = await runScript();
    expect(code, output).toBe(3);
    expect(output).toContain('replay-gt: every task ended in an infrastructure failure (unknown_server x3), so nothing was scored');
    expect(output).toContain('benchmark_fuzzy.sh: nothing was scored');

    // The run's own folder; the labelled catalog of the results folder lends the run its labels.
    const runDir = path.join(resultsDir, 'runs', 'allinfra');
    expect(JSON.parse(readFileSync(path.join(runDir, 'replay-gt_test_mcp_fuzzy.json'), 'utf8'))).toEqual([]);
    // No evaluation ran on the empty file, so no zero scores were written.
    expect(existsSync(path.join(runDir, 'replay-gt', 'results_eval.json'))).toBe(false);

    const catalog = JSON.parse(readFileSync(path.join(runDir, 'mcp_tools_with_desc.json'), 'utf8')) as Record<string, Record<string, Record<string, unknown>>>;
    expect(Object.keys(catalog)).toEqual(['echo']);
    expect(catalog.echo?.echo).toEqual({ description: 'Returns the given text.', catalogry: 'Office Automation' });
    expect(catalog.echo?.vanished).toBeUndefined();
    expect(catalog.echo?.cwd).toEqual({ description: 'Returns the working directory.' });
    const ours = JSON.parse(readFileSync(path.join(runDir, 'tools_catalog.json'), 'utf8')) as { tools: Array<{ server: string; tool: string }> };
    expect(Object.keys(catalog.echo ?? {}).sort()).toEqual(ours.tools.map((tool) => tool.tool).sort());
  }, 180_000);
});
