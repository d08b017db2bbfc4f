// The fallback layer's commands: `m3 config check` says what the switches enable, `m3 fixtures
// verify` names bad files by path and entry index (exit 1), and `m3 cache import|stats|export`
// move a cache through JSONL. They run in this process (test/support/m3-in-process.ts: the CLI's
// program, its printing and exit status), each with its switches in the environment.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startHttpFake } from '../../servers/shared/http-fake.js';
import { fallbackRuntime, writeFixture } from '../support/fallback-kit.js';
import { fixtureFile, tsxLoaderUrl } from '../support/fixture-servers/fixture-spec.js';
import { fixtureEntryArgs } from '../support/built-entry.js';
import { runM3InProcess } from '../support/m3-in-process.js';

// The logger's level is fixed when the CLI loads (default info); the checks read stdout and what
// the commands themselves print on stderr.
const runCli = (args: string[], env: Record<string, string>) => runM3InProcess(args, env);

const runtime = fallbackRuntime();
afterAll(() => rmSync(runtime.dir, { recursive: true, force: true }));
const env = { M3_MOCK_DIR: runtime.dir };

describe('fallback commands', { timeout: 120_000 }, () => {
  it('m3 config check describes the layer as the switches leave it', async () => {
    writeFixture(runtime.dir, 'geo/lookup', [
      { arguments: { q: 'x' }, result: 'X', source: 'test' },
      { arguments: '*', result: 'Y', source: 'test' },
    ]);
    const off = await runCli(['config', 'check'], { ...env, M3_MOCK_FALLBACK: '0', M3_MOCK_RECORD: 'auto' });
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toContain('tool fallback layer: off (M3_MOCK_FALLBACK=0)');
    const on = await runCli(['config', 'check'], { ...env, M3_MOCK_FALLBACK: '1', M3_MOCK_LLM: '0', M3_MOCK_ALLOW: 'tmdb/search_movies' });
    expect(on.stdout).toContain('tool fallback layer: on (M3_MOCK_FALLBACK=1)');
    expect(on.stdout).toContain('real result → fixture (1 tool(s), 2 entries in');
    expect(on.stdout).toContain('LLM simulator off (M3_MOCK_LLM=0) → generic template');
    expect(on.stdout).toMatch(/allow-list: .*paper_search\/search_arxiv, tmdb\/search_movies/);
    const bad = await runCli(['config', 'check'], { ...env, M3_MOCK_FALLBACK: '1', M3_MOCK_LLM: '1', M3_MOCK_LLM_MODEL: 'claude-opus-4.5' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('M3_MOCK_LLM_MODEL="claude-opus-4.5" is not provider:model');
  });

  it('m3 fixtures verify names each bad file and entry and exits 1', async () => {
    const file = writeFixture(runtime.dir, 'geo/broken', [
      { arguments: { q: 1 }, result: 'ok', source: 'test' },
      { arguments: 7, result: 'x', source: 'test' },
    ]);
    const result = await runCli(['fixtures', 'verify'], env);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${file} [1]: arguments:`);
    expect(result.stdout).toMatch(/2 tool\(s\), 3 valid entries, 3 replayed through the layer as written/);
  });

  it('m3 cache import, stats and export move a cache through JSONL', async () => {
    const input = path.join(runtime.dir, 'in.jsonl');
    const lines = [
      { server: 'geo', tool: 'lookup', arguments: { q: 'a' }, tools_hash: 'h1', result: 'A\n', source: 'real', recorded_at: '2026-01-02T03:04:05.000Z' },
      {
        server: 'geo',
        tool: 'lookup',
        arguments: { q: 'b' },
        tools_hash: 'h1',
        result: '{"b":1}',
        source: 'simulated',
        recorded_at: '2026-01-02T03:04:06.000Z',
      },
    ];
    writeFileSync(input, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const imported = await runCli(['cache', 'import', input], env);
    expect(imported.stdout, imported.stderr).toContain('2 new, 0 replaced');
    const stats = await runCli(['cache', 'stats', '--json'], env);
    expect(JSON.parse(stats.stdout).rows).toEqual([
      { server: 'geo', tool: 'lookup', source: 'real', entries: 1, newest: '2026-01-02T03:04:05.000Z' },
      { server: 'geo', tool: 'lookup', source: 'simulated', entries: 1, newest: '2026-01-02T03:04:06.000Z' },
    ]);
    const output = path.join(runtime.dir, 'out.jsonl');
    expect((await runCli(['cache', 'export', output], env)).stdout).toContain('exported 2 entries');
    const exported = readFileSync(output, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(exported).toEqual(lines.map((line) => ({ ...line, arguments_key: JSON.stringify(line.arguments) })));
  });

  it('m3 run prints the share of calls and tasks that received mocked returns', async () => {
    const fake = await startHttpFake([
      { path: '/weather', reply: (request) => (request.query.city === 'Paris' ? { status: 500 } : { status: 200, body: 'real weather' }) },
    ]);
    try {
      writeFixture(runtime.dir, 'flaky/lookup', [{ arguments: { city: 'Paris' }, result: 'fixture weather', source: 'test' }]);
      const file = (name: string, value: unknown) => {
        const target = path.join(runtime.dir, name);
        writeFileSync(target, JSON.stringify(value));
        return target;
      };
      const config = file('servers.json', {
        servers: {
          flaky: { command: process.execPath, args: fixtureEntryArgs(fixtureFile('flaky-web'), tsxLoaderUrl), env: { FLAKY_UPSTREAM_URL: fake.url } },
        },
      });
      const gt = ['Paris', 'Rome'].map((city) => ({
        id: city,
        question: `weather in ${city}?`,
        final_reply: 'ok',
        steps: [{ step: 1, calls: [{ name: 'flaky/lookup', arguments: { city } }] }],
      }));
      const tasks = file(
        'tasks.json',
        gt.map(({ id, question }) => ({ id, question })),
      );
      const result = await runCli(
        [
          'run',
          '--model',
          'replay:gt',
          '--tasks',
          tasks,
          '--gt',
          file('gt.json', gt),
          '--config',
          config,
          '--run-dir',
          path.join(runtime.dir, 'results'),
          '--store',
          path.join(runtime.dir, 'store.sqlite'),
          '--concurrency',
          '1',
          '--overwrite',
        ],
        { ...env, M3_MOCK_FALLBACK: '1', M3_MOCK_LLM: '0', M3_MAX_TASK_REQUEUE: '0' },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/predictions {2}mocked calls \/ tasks \(this trial\)\n/);
      expect(result.stdout).toMatch(/^replay-gt +1\/1 +2 +0 +0 .* 1\/2 \(50%\) \/ 1\/2 \(50%\)$/m);
    } finally {
      await fake.close();
    }
  });
});
