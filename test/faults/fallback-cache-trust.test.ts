// The fallback cache under a hostile sharer and a secret-bearing call (issue 30, items 2-4):
// `m3 cache import` refuses a poisoned key, a never-mocked or path-like server, an oversized
// result and a line without tools_hash, each with its line number; no secret reaches any column
// of the SQLite file or any export line; and a restricted (file or image) tool is served by its
// committed fixture alone, under every tier, and never recorded.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogTool, ServerStatus, ToolCallOutcome } from '../../src/mcp/types.js';
import { exportCache, importCache } from '../../src/fallback/cache-transfer.js';
import { registerSecret } from '../../src/log/redact.js';
import { openFallbackCache, putCacheEntry } from '../../src/store/index.js';
import { fallbackRuntime, layerFor, readAudit, writeFixture } from '../support/fallback-kit.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';

const toolsHash = 'hash-of-the-live-surface';
const host = {
  status: (): ServerStatus[] => ['geo', 'files'].map((name) => ({ name, transport: 'stdio', state: 'ready', toolCount: 1, restarts: 0, toolsHash })),
};
const line = (fields: Record<string, unknown>) =>
  JSON.stringify({
    server: 'geo',
    tool: 'lookup',
    arguments: { city: 'Paris' },
    tools_hash: toolsHash,
    result: 'Paris: 21 °C',
    source: 'real',
    recorded_at: '2026-11-30T10:00:00.000Z',
    ...fields,
  });

const tool = (server: string, name: string, inputSchema: Record<string, unknown>): CatalogTool => ({
  canonicalName: `${server}/${name}`,
  server,
  tool: name,
  functionName: `${server}__${name}`,
  description: 'a test tool',
  inputSchema,
});
const lookup = tool('geo', 'lookup', { type: 'object', properties: { city: { type: 'string' }, token: { type: 'string' } } });
const download = tool('files', 'download_report', { type: 'object', properties: { id: { type: 'string' } } });
const failed = (name: string): ToolCallOutcome => ({
  canonicalName: name,
  content: [{ type: 'text', text: 'upstream down' }],
  isError: true,
  errorCode: 'upstream_network',
  text: 'upstream down',
  durationMs: 3,
});
const succeeded = (name: string, text: string): ToolCallOutcome => ({
  canonicalName: name,
  content: [{ type: 'text', text }],
  isError: false,
  text,
  durationMs: 3,
});

describe('m3 cache import trusts nothing in a shared file', () => {
  const runtime = fallbackRuntime({ M3_MOCK_LLM: '0' });
  afterAll(() => rmSync(runtime.dir, { recursive: true, force: true }));

  const importLines = (name: string, lines: string[]) => {
    const file = path.join(runtime.dir, name);
    writeFileSync(file, `${lines.join('\n')}\n`);
    return () => importCache(runtime.settings.cacheFile, file, { keepExisting: false });
  };

  it('refuses a line whose arguments_key is not the key of its arguments, and serves nothing from it', async () => {
    const tokyoKey = JSON.stringify({ city: 'Tokyo' });
    const poisoned = importLines('poisoned.jsonl', [line({}), line({ arguments_key: tokyoKey, result: 'Tokyo: the airport is closed' })]);
    expect(poisoned).toThrow(/poisoned\.jsonl:2: arguments_key: does not match the key of this line's arguments/);
    const layer = layerFor(runtime.settings, host);
    try {
      const served = await layer.interceptor.afterCall({
        tool: lookup,
        arguments: { city: 'Tokyo' },
        context: { taskId: 't', workspace: runtime.dir },
        outcome: failed('geo/lookup'),
      });
      expect(served.text).not.toContain('airport');
    } finally {
      layer.close();
    }
  });

  it('refuses never-mocked servers, path-like names, oversized results and a missing tools_hash, naming each line', () => {
    const refused = importLines('hostile.jsonl', [
      line({}),
      line({ server: 'ocr', tool: 'ocr_image' }),
      line({ server: '../../etc' }),
      line({ result: 'x'.repeat(1024 * 1024 + 1) }),
      JSON.stringify({ server: 'geo', tool: 'lookup', arguments: { city: 'Rome' }, result: 'Rome', source: 'real', recorded_at: '2026-11-30T10:00:00.000Z' }),
    ]);
    let message = '';
    try {
      refused();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/hostile\.jsonl:2: server: "ocr" is never mocked/);
    expect(message).toMatch(/hostile\.jsonl:3: server: must be a name/);
    expect(message).toMatch(/hostile\.jsonl:4: result: the result is 1048577 bytes, over the cache's cap of 1048576 bytes/);
    expect(message).toMatch(/hostile\.jsonl:5: tools_hash: is missing/);
    expect(message).not.toMatch(/hostile\.jsonl:1:/);
    expect(message).toContain('nothing was written');
  });
});

describe('no secret in any cache column or export line', () => {
  const secret = 'db-pass-7b3e1f9a2c';
  const runtime = fallbackRuntime({ M3_MOCK_LLM: '0', M3_MOCK_ALLOW: 'geo/lookup' });
  beforeAll(() => registerSecret(secret));
  afterAll(() => rmSync(runtime.dir, { recursive: true, force: true }));

  it('keys a call by its redacted arguments: stored and exported without the secret, and still replayed for the same call', async () => {
    const layer = layerFor(runtime.settings, host);
    const call = { tool: lookup, arguments: { city: `Paris?pass=${secret}`, token: 'tok-abcdef-123456' }, context: { taskId: 't', workspace: runtime.dir } };
    try {
      expect(layer.interceptor.recordReal({ ...call, outcome: succeeded('geo/lookup', 'Paris: 21 °C') })).toEqual({ recorded: true, outcome: 'inserted' });
      const replayed = await layer.interceptor.afterCall({ ...call, outcome: failed('geo/lookup') });
      expect([replayed.fallback?.tier, replayed.text]).toEqual(['cache', 'Paris: 21 °C']);
    } finally {
      layer.close();
    }
    const database = readFileSync(runtime.settings.cacheFile).toString('latin1');
    expect(database).toContain('Paris?pass=[REDACTED]');
    expect(database).not.toContain(secret);
    expect(database).not.toContain('tok-abcdef-123456');
    const exported = path.join(runtime.dir, 'out.jsonl');
    expect(exportCache(runtime.settings.cacheFile, exported)).toBe(1);
    const text = readFileSync(exported, 'utf8');
    expect(text).not.toContain(secret);
    expect(text).not.toContain('tok-abcdef-123456');
    // The export imports back as it is: its key is the key of its own (redacted) arguments.
    expect(importCache(path.join(runtime.dir, 'again.sqlite'), exported, { keepExisting: false }).inserted).toBe(1);
  });
});

describe('a cache file written before the secret was known', () => {
  const late = 'late-secret-4c8e2a9d7f';
  const runtime = fallbackRuntime({ M3_MOCK_LLM: '0', M3_MOCK_ALLOW: 'geo/lookup' });
  afterAll(() => rmSync(runtime.dir, { recursive: true, force: true }));

  it('is rewritten on open: keys of redacted arguments, no secret in any column, still served for the same call', async () => {
    const args = { city: `Oslo?sig=${late}` };
    // An older writer: a raw key, and arguments and result holding a value not registered yet.
    const old = openFallbackCache(runtime.settings.cacheFile);
    putCacheEntry(
      old,
      { server: 'geo', tool: 'lookup', argumentsKey: JSON.stringify(args), toolsHash, arguments: args, resultText: `Oslo (${late}): 4 °C`, source: 'real' },
      { replace: true },
    );
    old.close();
    expect(readFileSync(runtime.settings.cacheFile).toString('latin1')).toContain(late);
    registerSecret(late);
    const layer = layerFor(runtime.settings, host);
    try {
      const served = await layer.interceptor.afterCall({
        tool: lookup,
        arguments: args,
        context: { taskId: 't', workspace: runtime.dir },
        outcome: failed('geo/lookup'),
      });
      expect([served.fallback?.tier, served.text]).toEqual(['cache', 'Oslo ([REDACTED]): 4 °C']);
    } finally {
      layer.close();
    }
    expect(readFileSync(runtime.settings.cacheFile).toString('latin1')).not.toContain(late);
  });
});

describe('a restricted file or image tool is served by its committed fixture alone', () => {
  let llm: MockLlm;
  const runtime = fallbackRuntime({ M3_MOCK_LLM: '1', M3_MOCK_LLM_MODEL: 'openai:simulator-model', M3_MOCK_ALLOW: '*' });
  const context = { taskId: 't', workspace: runtime.dir };
  beforeAll(async () => {
    llm = await startMockLlm();
    writeFixture(runtime.dir, 'files/download_report', [{ arguments: { id: '1' }, result: 'downloaded report 1 to {{saved_path}}', source: 'test' }]);
    writeFileSync(
      path.join(runtime.dir, 'cached.jsonl'),
      `${line({ server: 'files', tool: 'download_report', arguments: { id: '8888' }, result: 'downloaded to ./downloads/8888.pdf' })}\n`,
    );
    importCache(runtime.settings.cacheFile, path.join(runtime.dir, 'cached.jsonl'), { keepExisting: false });
  });
  afterAll(async () => {
    await llm?.close();
    rmSync(runtime.dir, { recursive: true, force: true });
  });

  it('keeps the infrastructure error under the cache, simulator and template tiers; serves the exact fixture; records nothing', async () => {
    const layer = layerFor(runtime.settings, host, { OPENAI_API_KEY: 'sk-simulator-test-0123456789', OPENAI_BASE_URL: llm.openAiBaseUrl });
    try {
      const call = (id: string) => layer.interceptor.afterCall({ tool: download, arguments: { id }, context, outcome: failed('files/download_report') });
      // A cached line exists for 8888: the cache tier must not serve it.
      const cached = await call('8888');
      expect([cached.isError, cached.errorCode, cached.fallback]).toEqual([true, 'upstream_network', undefined]);
      // Nothing for 9999: neither the simulator (which would answer) nor the template may.
      llm.enqueue({ text: 'downloaded 9999 to ./downloads/9999.pdf' });
      const missing = await call('9999');
      expect([missing.isError, missing.errorCode, missing.fallback]).toEqual([true, 'upstream_network', undefined]);
      expect(llm.requests).toHaveLength(0);
      const exact = await call('1');
      expect([exact.isError, exact.fallback?.tier]).toEqual([false, 'fixture']);
      expect(readAudit(runtime.settings.auditLogFile).map((entry) => [entry.tool, entry.tier])).toEqual([['download_report', 'fixture']]);
      const recorded = layer.interceptor.recordReal({
        tool: download,
        arguments: { id: '2' },
        context,
        outcome: succeeded('files/download_report', 'downloaded to ./downloads/2.pdf'),
      });
      expect(recorded).toMatchObject({ recorded: false, reason: expect.stringContaining('only its committed fixture') });
    } finally {
      layer.close();
    }
  });

  it('serves a restricted tool\'s "*" default fixture before any other tier', async () => {
    writeFixture(runtime.dir, 'files/download_report', [
      { arguments: { id: '1' }, result: 'downloaded report 1', source: 'test' },
      { arguments: '*', result: 'OFFLINE FIXTURE report', source: 'test' },
    ]);
    const layer = layerFor(runtime.settings, host, { OPENAI_API_KEY: 'sk-simulator-test-0123456789', OPENAI_BASE_URL: llm.openAiBaseUrl });
    try {
      const served = await layer.interceptor.afterCall({ tool: download, arguments: { id: '8888' }, context, outcome: failed('files/download_report') });
      expect([served.fallback?.tier, served.text]).toEqual(['fixture', 'OFFLINE FIXTURE report']);
    } finally {
      layer.close();
    }
  });
});
