// Record-replay: `m3 fixtures record`'s recorder calls the GT calls of a real local server (the
// flaky-web fixture over MCP stdio, its upstream a loopback fake) and stores the returns; then
// the upstream is stopped, and then the MCP server itself is killed, and the layer replays the
// recorded returns byte for byte. The cache is exported to JSONL, imported into an empty cache
// and replayed again; a bad export line is refused by file and line.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallContext } from '../../src/core/tool-result-contract.js';
import { FallbackCache } from '../../src/fallback/cache.js';
import { exportCache, importCache, readCacheStats } from '../../src/fallback/cache-transfer.js';
import type { FallbackLayer } from '../../src/fallback/index.js';
import { planGtCalls, recordServer } from '../../src/fallback/record-gt.js';
import { callCheckedTool } from '../../src/mcp/checked-call.js';
import { McpHost } from '../../src/mcp/index.js';
import type { GtTask } from '../../src/tasks/schemas.js';
import { startHttpFake, type HttpFake } from '../../servers/shared/http-fake.js';
import { fallbackRuntime, layerFor, readAudit, silentLogger } from '../support/fallback-kit.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';

const runtime = fallbackRuntime({ M3_MOCK_LLM: '0', M3_MOCK_ALLOW: 'flaky/*' });
const context: CallContext = { taskId: 'replay-task', runId: 'replay-run', workspace: runtime.dir };
const groundTruth: GtTask[] = [
  {
    id: 't1',
    question: 'q',
    final_reply: '',
    steps: [
      {
        step: 1,
        calls: [
          { name: 'flaky/lookup', arguments: { city: 'Paris' } },
          { name: 'flaky/lookup', arguments: { city: 'Zürich' } },
        ],
      },
    ],
  },
  {
    id: 't2',
    question: 'q',
    final_reply: '',
    steps: [
      { step: 1, calls: [{ name: 'flaky/lookup', arguments: { city: 'Paris' } }] },
      { step: 2, calls: [{ name: 'flaky/reject', arguments: { city: 'x' } }] },
    ],
  },
  { id: 't3', question: 'q', final_reply: '', steps: [{ step: 1, calls: [{ name: 'keyless/needs_key', arguments: { city: 'Oslo' } }] }] },
] as GtTask[];
let fake: HttpFake;
let host: McpHost;
let layer: FallbackLayer;
const real = new Map<string, string>();

beforeAll(async () => {
  fake = await startHttpFake([
    { path: '/weather', reply: (request) => ({ status: 200, body: `{"city": "${String(request.query.city)}", "temp_c": 17.5,\n "note": "ünïcödé ✓"}\n` }) },
  ]);
  const spec = (name: string) => fixtureSpec('flaky-web', { name, env: { FLAKY_UPSTREAM_URL: fake.url, M3_HTTP_TIMEOUT_MS: '5000' } });
  host = await McpHost.start([spec('flaky'), spec('keyless')], {
    requireAll: true,
    startupTimeoutMs: 90_000,
    logger: silentLogger,
    restart: { maxAttempts: 0 },
  });
  layer = layerFor(runtime.settings, host);
}, 120_000);

afterAll(async () => {
  layer?.close();
  await host?.close();
  await fake?.close();
  rmSync(runtime.dir, { recursive: true, force: true });
});

const replay = (city: string, interceptor = layer.interceptor) => callCheckedTool(host, 'flaky/lookup', { city }, { context, interceptor });

describe('record, stop, replay', () => {
  it('plans unique GT calls per server and records the successful ones, rate-limit friendly', async () => {
    const plan = planGtCalls(groundTruth);
    expect([...plan.keys()]).toEqual(['flaky', 'keyless']);
    expect(plan.get('flaky')?.map((call) => [call.tool, call.arguments, call.taskIds])).toEqual([
      ['lookup', { city: 'Paris' }, ['t1', 't2']],
      ['lookup', { city: 'Zürich' }, ['t1']],
      ['reject', { city: 'x' }, ['t2']],
    ]);
    const waits: number[] = [];
    const lines: string[] = [];
    const options = {
      host,
      recorder: layer.interceptor,
      delayMs: 250,
      limit: 0,
      workspace: runtime.dir,
      serverEnv: () => ({}),
      onLine: (line: string) => lines.push(line),
      sleep: async (ms: number) => void waits.push(ms),
    };
    expect(await recordServer('flaky', plan.get('flaky') ?? [], options)).toEqual({ server: 'flaky', recorded: 2, failed: 1 });
    expect(waits).toEqual([250, 250]);
    expect(lines[2]).toContain('[SKIP] flaky/reject {"city":"x"} -> [Tool error] unknown city "x"');
    expect(await recordServer('flaky', plan.get('flaky') ?? [], { ...options, limit: 1 })).toEqual({ server: 'flaky', recorded: 1, failed: 0 });
    const keyless = await recordServer('keyless', plan.get('keyless') ?? [], options);
    expect(keyless.skipped).toMatch(/^missing credentials: .*FLAKY_API_KEY/);
    expect(await recordServer('absent', [{ tool: 'x', arguments: {}, taskIds: ['t9'] }], options)).toMatchObject({
      recorded: 0,
      skipped: expect.stringContaining('not running'),
    });
    for (const city of ['Paris', 'Zürich']) real.set(city, (await callCheckedTool(host, 'flaky/lookup', { city }, { context })).text);
    expect(real.get('Zürich')).toBe('{"city": "Zürich", "temp_c": 17.5,\n "note": "ünïcödé ✓"}\n');
    expect(readCacheStats(runtime.settings.cacheFile).map((row) => [row.server, row.tool, row.source, row.entries])).toEqual([['flaky', 'lookup', 'real', 2]]);
  });

  it('replays the recorded returns byte for byte once the upstream is gone, and once the server is gone', async () => {
    await fake.close();
    for (const city of ['Paris', 'Zürich']) {
      const outcome = await replay(city);
      expect(outcome).toMatchObject({ isError: false, fallback: { tier: 'cache', originalErrorCode: 'upstream_network' } });
      expect(Buffer.from(outcome.text).equals(Buffer.from(real.get(city) ?? ''))).toBe(true);
    }
    const pid = host.status().find((server) => server.name === 'flaky')?.pid;
    expect(pid).toBeTypeOf('number');
    process.kill(pid as number, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const outcome = await replay('Paris');
    expect(outcome.fallback?.tier).toBe('cache');
    expect(['server_crashed', 'server_unavailable']).toContain(outcome.fallback?.originalErrorCode);
    expect(outcome.text).toBe(real.get('Paris'));
    expect(readAudit(runtime.settings.auditLogFile).map((entry) => entry.tier)).toEqual(['cache', 'cache', 'cache']);
  });

  it('exports the cache, imports it into an empty one and replays the same bytes from it', async () => {
    const exported = path.join(runtime.dir, 'shared.jsonl');
    expect(exportCache(runtime.settings.cacheFile, exported)).toBe(2);
    const other = fallbackRuntime({ M3_MOCK_LLM: '0', M3_MOCK_ALLOW: 'flaky/*' });
    try {
      expect(importCache(other.settings.cacheFile, exported, { keepExisting: false })).toEqual({ inserted: 2, replaced: 0, unchanged: 0, kept: 0 });
      expect(importCache(other.settings.cacheFile, exported, { keepExisting: false })).toEqual({ inserted: 0, replaced: 0, unchanged: 2, kept: 0 });
      const again = path.join(other.dir, 'again.jsonl');
      exportCache(other.settings.cacheFile, again);
      expect(readFileSync(again, 'utf8')).toBe(readFileSync(exported, 'utf8'));
      const imported = layerFor(other.settings, host);
      try {
        for (const city of ['Paris', 'Zürich']) {
          const outcome = await replay(city, imported.interceptor);
          expect([outcome.fallback?.tier, outcome.text]).toEqual(['cache', real.get(city)]);
        }
      } finally {
        imported.close();
      }
      const bad = path.join(other.dir, 'bad.jsonl');
      const lines = readFileSync(exported, 'utf8').split('\n');
      writeFileSync(bad, [lines[0], '{"server": "flaky"}', 'not json'].join('\n'));
      expect(() => importCache(other.settings.cacheFile, bad, { keepExisting: false })).toThrow(/bad\.jsonl:2: tool: .*\n.*bad\.jsonl:3: not JSON/s);
    } finally {
      rmSync(other.dir, { recursive: true, force: true });
    }
  });

  it('keeps a recorded return when a simulated one arrives, and lets a newer real one replace both', () => {
    const cache = FallbackCache.open(path.join(runtime.dir, 'cache', 'precedence.sqlite'));
    try {
      const key = { server: 's', tool: 't', arguments: { b: 2, a: [1, { y: 1, x: 0 }] }, toolsHash: 'h' };
      expect(cache.record(key, 'simulated one', 'simulated')).toBe('inserted');
      expect(cache.record(key, 'real one', 'real')).toBe('replaced');
      expect(cache.record(key, 'simulated two', 'simulated')).toBe('kept');
      const reordered = { ...key, arguments: { a: [1, { x: 0.0, y: 1 }], b: 2.0 } };
      expect(cache.lookup(reordered)).toMatchObject({ resultText: 'real one', source: 'real' });
      expect(cache.lookup({ ...key, toolsHash: 'another surface' })).toBeUndefined();
      expect(cache.lookup({ ...key, arguments: { a: [{ y: 1, x: 0 }, 1], b: 2 } })).toBeUndefined();
    } finally {
      cache.close();
    }
  });
});
