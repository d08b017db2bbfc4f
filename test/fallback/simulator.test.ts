// The LLM simulator tier through our own OpenAI driver (the real OpenAI SDK) against the
// wire-level mock LLM: a schema-valid reply is served and cached as `simulated`, so the next
// identical call replays it without a model request; a reply that breaks the output schema or
// the JSON shape of the real examples is asked for once more, then the template serves; the
// simulator switched off, or its endpoint failing, also ends at the template.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCacheStats } from '../../src/fallback/cache-transfer.js';
import type { FallbackLayer } from '../../src/fallback/index.js';
import type { FinishedToolCall } from '../../src/mcp/checked-call.js';
import type { CatalogTool } from '../../src/mcp/types.js';
import { fallbackRuntime, layerFor, readAudit } from '../support/fallback-kit.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';

const forecastTool: CatalogTool = {
  canonicalName: 'weather/forecast',
  server: 'weather',
  tool: 'forecast',
  functionName: 'weather__forecast',
  description: 'Daily forecast.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  outputSchema: { type: 'object', properties: { city: { type: 'string' }, high: { type: 'number' } }, required: ['city', 'high'] },
};
const quoteTool: CatalogTool = {
  canonicalName: 'stocks/quote',
  server: 'stocks',
  tool: 'quote',
  functionName: 'stocks__quote',
  description: 'Latest quote.',
  inputSchema: { type: 'object', properties: { symbol: { type: 'string' } } },
};

function failed(
  tool: CatalogTool,
  args: Record<string, unknown>,
  code: 'upstream_rate_limited' | 'upstream_server_error' = 'upstream_rate_limited',
): FinishedToolCall {
  return {
    tool,
    arguments: args,
    context: { taskId: 'sim-task', runId: 'sim-run', workspace: '/tmp' },
    outcome: {
      canonicalName: tool.canonicalName,
      content: [{ type: 'text', text: '[Tool error] down' }],
      isError: true,
      errorCode: code,
      text: '[Tool error] down',
      durationMs: 3,
    },
  };
}
const succeeded = (tool: CatalogTool, args: Record<string, unknown>, text: string): FinishedToolCall => ({
  ...failed(tool, args),
  outcome: { canonicalName: tool.canonicalName, content: [{ type: 'text', text }], isError: false, text, durationMs: 3 },
});

let llm: MockLlm;
const runtimes: string[] = [];
beforeAll(async () => {
  llm = await startMockLlm();
});
afterAll(async () => {
  await llm?.close();
  for (const dir of runtimes) rmSync(dir, { recursive: true, force: true });
});

function layerWith(switches: Record<string, string>): { layer: FallbackLayer; audit: () => ReturnType<typeof readAudit>; cacheFile: string } {
  const runtime = fallbackRuntime({ M3_MOCK_LLM_MODEL: 'openai:sim-4', M3_MOCK_ALLOW: 'weather/*,stocks/*', ...switches });
  runtimes.push(runtime.dir);
  const status = () => [{ name: 'weather', transport: 'stdio' as const, state: 'ready' as const, toolCount: 1, restarts: 0, toolsHash: 'w1' }];
  const layer = layerFor(runtime.settings, { status }, { OPENAI_API_KEY: 'sk-sim-000', OPENAI_BASE_URL: llm.openAiBaseUrl });
  return { layer, audit: () => readAudit(runtime.settings.auditLogFile), cacheFile: runtime.settings.cacheFile };
}

describe('the LLM simulator tier', () => {
  it('serves a schema-valid reply, caches it as simulated, and replays it without asking again', async () => {
    const { layer, audit, cacheFile } = layerWith({});
    const before = llm.generations().length;
    llm.enqueue({ text: '```json\n{"city": "Oslo", "high": 7.5}\n```' });
    const first = await layer.interceptor.afterCall(failed(forecastTool, { city: 'Oslo' }));
    expect(first).toMatchObject({
      isError: false,
      text: '{"city": "Oslo", "high": 7.5}',
      fallback: { tier: 'simulator', originalErrorCode: 'upstream_rate_limited' },
    });
    const second = await layer.interceptor.afterCall(failed(forecastTool, { city: 'Oslo' }, 'upstream_server_error'));
    expect(second).toMatchObject({ text: first.text, fallback: { tier: 'cache', originalErrorCode: 'upstream_server_error' } });
    expect(llm.generations().length - before).toBe(1);
    const request = llm.generations().at(-1)?.body as { model: string; messages: Array<{ role: string; content: unknown }> };
    expect(request.model).toBe('sim-4');
    expect(JSON.stringify(request.messages)).toContain('{\\"city\\":\\"Oslo\\"}');
    expect(readCacheStats(cacheFile).map((row) => [row.server, row.tool, row.source, row.entries])).toEqual([['weather', 'forecast', 'simulated', 1]]);
    expect(audit().map((entry) => entry.tier)).toEqual(['simulator', 'cache']);
    layer.close();
  });

  it('retries a reply that breaks the JSON shape of the real examples once, then serves the template', async () => {
    const { layer, audit } = layerWith({ M3_MOCK_MARK_INLINE: '1' });
    await layer.interceptor.afterCall(succeeded(quoteTool, { symbol: 'AAPL' }, '{"symbol":"AAPL","price":187.2}'));
    const before = llm.generations().length;
    llm.enqueue({ text: 'AAPL is trading at about 190 dollars.' }, { text: 'Roughly $200.' });
    const outcome = await layer.interceptor.afterCall(failed(quoteTool, { symbol: 'MSFT' }));
    const requests = llm
      .generations()
      .slice(before)
      .map((request) => JSON.stringify(request.body));
    expect(requests).toHaveLength(2);
    expect(requests[0]).toContain('187.2'); // the recorded real return was shown as an example
    expect(requests[1]).toContain('every real return of this tool is JSON but the reply is not');
    const marked = JSON.parse(outcome.text) as { mocked: boolean; tier: string; result: string };
    expect(marked).toMatchObject({ mocked: true, tier: 'template' });
    expect(JSON.parse(marked.result)).toMatchObject({ mocked: true, tool: 'stocks/quote', arguments: { symbol: 'MSFT' } });
    expect(audit()[0]?.note).toContain('every real return of this tool is JSON but the reply is not (after 2 attempts)');
    layer.close();
  });

  it('falls to the template when the simulator is off or its endpoint fails', async () => {
    const off = layerWith({ M3_MOCK_LLM: '0' });
    const before = llm.generations().length;
    expect((await off.layer.interceptor.afterCall(failed(forecastTool, { city: 'Rome' }))).fallback?.tier).toBe('template');
    expect(off.audit()[0]?.note).toBe('simulator off (M3_MOCK_LLM=0)');
    expect(llm.generations().length).toBe(before);
    off.layer.close();

    const broken = layerWith({});
    llm.enqueue({ fault: { kind: 'status', status: 500 } }, { fault: { kind: 'drop' } });
    expect((await broken.layer.interceptor.afterCall(failed(forecastTool, { city: 'Rome' }))).fallback?.tier).toBe('template');
    expect(broken.audit()[0]?.note).toMatch(/^simulator: the simulator request failed: .*\(after 2 attempts\)$/);
    broken.layer.close();
  });
});
