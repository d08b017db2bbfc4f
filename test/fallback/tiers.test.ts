// The tool fallback layer behind fixture servers that fail on purpose (the web ones in process,
// through the host's connectServer option, reaching a loopback HTTP fake or a closed port; the
// crashing one a child process over MCP stdio, since its crash is a process exit): every infrastructure
// failure is served, the tiers are reached in their order, a real success is never replaced, a
// model's own argument error is never mocked, and a vision server is never mocked even when it
// is on the allow-list and has a fixture. The simulator tier talks to the wire-level mock LLM
// through the real OpenAI SDK.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallContext } from '../../src/core/tool-result-contract.js';
import type { FallbackLayer } from '../../src/fallback/index.js';
import { callCheckedTool } from '../../src/mcp/checked-call.js';
import { McpHost } from '../../src/mcp/index.js';
import { startHttpFake, type HttpFake } from '../../servers/shared/http-fake.js';
import { closedPortUrl, fallbackRuntime, layerFor, readAudit, silentLogger, writeFixture } from '../support/fallback-kit.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { inProcessHost } from '../support/in-process-host.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { shortTimeoutEnv, slowReply } from '../support/slow-upstream.js';

const runtime = fallbackRuntime({ M3_MOCK_LLM_MODEL: 'openai:simulator-model', M3_MOCK_ALLOW: 'flaky/forecast,refused/*,ocr/*' });
const context: CallContext = { taskId: 'task-1', runId: 'run-1', workspace: runtime.dir };
let fake: HttpFake;
let llm: MockLlm;
let host: McpHost;
let layer: FallbackLayer;

beforeAll(async () => {
  fake = await startHttpFake([
    { path: '/weather', reply: (request) => ({ status: 200, body: `Weather in ${String(request.query.city)}: 18 °C, light rain\nwind 12 km/h` }) },
    { path: '/forecast', reply: { status: 503, body: 'forecast service down' } },
  ]);
  llm = await startMockLlm();
  writeFixture(runtime.dir, 'flaky/lookup', [
    { arguments: { city: 'Paris' }, result: 'fixture: Paris 21 °C', source: 'test' },
    { arguments: '*', result: 'fixture: default weather', source: 'test' },
  ]);
  for (const name of ['refused/lookup', 'late/lookup', 'flaky/needs_key', 'flaky/reject', 'crashing/hang', 'crashing/crash', 'ocr/lookup']) {
    writeFixture(runtime.dir, name, [{ arguments: '*', result: { served: name }, source: 'test' }]);
  }
  const web = (name: string, url: string, env: Record<string, string> = {}) => fixtureSpec('flaky-web', { name, env: { FLAKY_UPSTREAM_URL: url, ...env } });
  // `late` is the same server with a short timeout, for the slow answer (test/support/slow-upstream.ts).
  host = await McpHost.start(
    [web('flaky', fake.url), web('refused', await closedPortUrl()), web('late', fake.url, shortTimeoutEnv), web('ocr', fake.url), fixtureSpec('crashing')],
    {
      requireAll: true,
      startupTimeoutMs: 90_000,
      logger: silentLogger,
      connectServer: inProcessHost().connectServer,
    },
  );
  layer = layerFor(runtime.settings, host, { OPENAI_API_KEY: 'sk-simulator-test', OPENAI_BASE_URL: llm.openAiBaseUrl });
}, 120_000);

afterAll(async () => {
  layer?.close();
  await host?.close();
  await fake?.close();
  await llm?.close();
  rmSync(runtime.dir, { recursive: true, force: true });
});

const call = (name: string, args: Record<string, unknown>, timeoutMs?: number) =>
  callCheckedTool(host, name, args, { context, interceptor: layer.interceptor, ...(timeoutMs ? { timeoutMs } : {}) });
const fail500 = (count = 1) => fake.queueFault('/weather', { status: 500, body: 'upstream exploded' }, count);
const audit = () => readAudit(runtime.settings.auditLogFile);

describe('the fallback layer', () => {
  it('never replaces a real success, and records it', async () => {
    const outcome = await call('flaky/lookup', { city: 'Paris' });
    expect(outcome).toMatchObject({ isError: false, text: 'Weather in Paris: 18 °C, light rain\nwind 12 km/h' });
    expect(outcome.fallback).toBeUndefined();
    expect(audit()).toEqual([]);
  });

  it('reaches the tiers in order: exact fixture, cache, fixture default, simulator, template', async () => {
    const rome = await call('flaky/lookup', { city: 'Rome' });
    expect(rome.isError).toBe(false);
    const schemaValid = JSON.stringify({
      city: 'Oslo',
      days: [
        { day: 1, high: 9, low: 2 },
        { day: 2, high: 8, low: 1 },
      ],
    });
    llm.enqueue({ text: schemaValid }, { text: 'Sunny all week!' }, { text: '{"city": "Lima"}' });
    fail500(3);
    const paris = await call('flaky/lookup', { city: 'Paris' });
    const cached = await call('flaky/lookup', { city: 'Rome' });
    const oslo = await call('flaky/lookup', { city: 'Oslo' });
    const simulated = await call('flaky/forecast', { city: 'Oslo', days: 2 });
    const template = await call('flaky/forecast', { city: 'Lima', days: 2 });

    expect(paris).toMatchObject({ isError: false, text: 'fixture: Paris 21 °C', fallback: { tier: 'fixture', originalErrorCode: 'upstream_server_error' } });
    expect(cached).toMatchObject({ isError: false, text: rome.text, fallback: { tier: 'cache' } });
    expect(oslo).toMatchObject({ text: 'fixture: default weather', fallback: { tier: 'fixture' } });
    expect(simulated).toMatchObject({ text: schemaValid, fallback: { tier: 'simulator', originalErrorCode: 'upstream_server_error' } });
    expect(template.fallback).toMatchObject({ tier: 'template', originalErrorCode: 'upstream_server_error' });
    expect(JSON.parse(template.text)).toMatchObject({ mocked: true, tool: 'flaky/forecast', arguments: { city: 'Lima', days: 2 } });
    for (const served of [paris, cached, oslo, simulated, template]) {
      expect(served.errorCode).toBeUndefined();
      expect(served.errorMeta).toBeUndefined();
    }
    // The simulator saw the tool's schemas; the rejected reply was asked for again once.
    const prompts = llm.generations().map((request) => JSON.stringify(request.body));
    expect(prompts).toHaveLength(3);
    expect(prompts[0]).toContain('flaky/forecast');
    expect(prompts[0]).toContain('Output JSON schema');
    expect(prompts[2]).toContain('Your previous reply was rejected');
    expect(audit().map((entry) => [entry.tool, entry.tier, entry.original_error_code])).toEqual([
      ['lookup', 'fixture', 'upstream_server_error'],
      ['lookup', 'cache', 'upstream_server_error'],
      ['lookup', 'fixture', 'upstream_server_error'],
      ['forecast', 'simulator', 'upstream_server_error'],
      ['forecast', 'template', 'upstream_server_error'],
    ]);
    expect(audit()[4]?.note).toMatch(/simulator: .*after 2 attempts/);
    expect(audit().every((entry) => entry.run === 'run-1' && entry.task === 'task-1' && entry.server === 'flaky')).toBe(true);
  });

  it('serves every infrastructure failure: 429 with retry-after, 401, 500, timeouts, refused connections, missing keys, crashes', async () => {
    fake.queueFault('/weather', { status: 429, headers: { 'retry-after': '120' }, body: 'slow down' });
    const raw = await callCheckedTool(host, 'flaky/lookup', { city: 'Oslo' }, { context });
    expect(raw).toMatchObject({ isError: true, errorCode: 'upstream_rate_limited', errorMeta: { status: 429, retryAfterSec: 120 } });
    const cases: Array<[string, Record<string, unknown>, string, () => void, number?]> = [
      ['flaky/lookup', { city: 'Bergen' }, 'upstream_rate_limited', () => fake.queueFault('/weather', { status: 429, headers: { 'retry-after': '120' } })],
      ['flaky/lookup', { city: 'Bergen' }, 'upstream_auth', () => fake.queueFault('/weather', { status: 401, body: 'bad key' })],
      ['flaky/lookup', { city: 'Bergen' }, 'upstream_server_error', () => fail500()],
      ['late/lookup', { city: 'Bergen' }, 'upstream_timeout', () => fake.queueFault('/weather', slowReply('late'))],
      ['refused/lookup', { city: 'Bergen' }, 'upstream_network', () => undefined],
      ['flaky/needs_key', { city: 'Bergen' }, 'missing_credentials', () => undefined],
      ['crashing/hang', {}, 'tool_timeout', () => undefined, 500],
      ['crashing/crash', { code: 9 }, 'server_crashed', () => undefined],
    ];
    for (const [name, args, code, arrange, timeoutMs] of cases) {
      arrange();
      const outcome = await call(name, args, timeoutMs);
      expect([name, code, outcome.isError, outcome.fallback]).toEqual([name, code, false, { tier: 'fixture', originalErrorCode: code }]);
    }
  });

  it("never mocks a model-argument error: a refused call, or a server's own error result", async () => {
    const before = audit().length;
    const refused = await call('flaky/lookup', { city: 42 });
    expect(refused).toMatchObject({ isError: true, errorCode: 'invalid_arguments' });
    const rejected = await call('flaky/reject', { city: 'Atlantis' });
    expect(rejected).toMatchObject({ isError: true, text: '[Tool error] unknown city "Atlantis": pass a city name such as Paris' });
    expect(rejected.errorCode).toBeUndefined();
    for (const outcome of [refused, rejected]) expect(outcome.fallback).toBeUndefined();
    expect(audit()).toHaveLength(before);
  });

  it('never mocks a vision server, even listed in M3_MOCK_ALLOW and with a fixture', async () => {
    const before = audit().length;
    expect(layer.allowList.decide(host.findByCanonical('ocr/lookup')!)).toEqual({
      mockable: false,
      reason: 'never mocked: server ocr works on images or files',
    });
    fail500();
    const outcome = await call('ocr/lookup', { city: 'Paris' });
    expect(outcome).toMatchObject({ isError: true, errorCode: 'upstream_server_error' });
    expect(outcome.fallback).toBeUndefined();
    expect(audit()).toHaveLength(before);
  });
});
