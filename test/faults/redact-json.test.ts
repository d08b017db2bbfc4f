// Redaction must never corrupt what it redacts. Ordinary text that looks like a credential (a
// model answer quoting `curl -H "Authorization: Bearer …"`, a `?key=abc")` URL, a tool
// description or tool result with the same) travels through the demo's JSON replies and its
// event stream: every reply must stay valid JSON, the secret masked, the rest of the text intact.
import { describe, expect, it } from 'vitest';
import { toRedactedJson } from '../../src/log/redact.js';
import { collectEvents, pageHeaders, visitorHeaders } from '../demo/demo-harness.js';
import { useLeakyDemo } from './leaky-demo.js';

const leaky = useLeakyDemo();

async function json(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  expect(() => JSON.parse(text), `not JSON: ${text.slice(0, 300)}`).not.toThrow();
  return JSON.parse(text) as Record<string, unknown>;
}

const post = (route: string, body: unknown) =>
  fetch(`${leaky().url}${route}`, { method: 'POST', headers: pageHeaders(leaky().url), body: JSON.stringify(body) });

describe('redaction keeps JSON valid', () => {
  it('a tool description quoting an Authorization header: /api/tools stays JSON, the token is masked', async () => {
    const body = await json(await fetch(`${leaky().url}api/tools`));
    const crash = (body.tools as Array<{ name: string; description: string }>).find((tool) => tool.name === 'leaky/crash');
    expect(crash?.description).toBe('Crashes the server. Upstream usage: curl -H "Authorization: [REDACTED]" "https://example.test/api?key=[REDACTED]")');
  });

  it('a model answer and a tool result with the same text: every event of the stream is JSON', async () => {
    const session = (await json(await post('api/sessions', {}))).id as string;
    const said = 'curl -H "Authorization: Bearer abc123def456" "https://x.test/v1?key=abc")';
    const call = leaky().host.tools.find((tool) => tool.canonicalName === 'leaky/say')!.functionName;
    leaky().mock.enqueue({ toolCalls: [{ name: call, arguments: { text: said } }] }, { text: `Run: ${said}` });
    const started = await json(await post(`api/sessions/${session}/messages`, { text: 'How do I call it?', model: 'openai:mock-model' }));
    const events = await collectEvents(leaky().url, session, (event) => event.type === 'episode_end' && event.episodeId === started.episodeId);
    const masked = 'curl -H "Authorization: [REDACTED]" "https://x.test/v1?key=[REDACTED]")';
    expect(events.find((line) => line.event.type === 'tool_call_end')?.event).toMatchObject({ result: masked, isError: false });
    expect(events.at(-1)?.event).toMatchObject({ type: 'episode_end', status: 'ok', reply: `Run: ${masked}` });
    const state = await json(await fetch(`${leaky().url}api/sessions/${session}`, { headers: visitorHeaders() }));
    expect((state.turns as Array<{ reply: string }>)[0]?.reply).toBe(`Run: ${masked}`);
  });

  it('the tool playground returns the same text as valid JSON', async () => {
    const session = (await json(await post('api/sessions', {}))).id as string;
    const result = await json(await post('api/tools/call', { sessionId: session, tool: 'leaky/say', arguments: { text: 'x-api-key: "k-123456"\\"' } }));
    expect(JSON.stringify(result)).toContain('[REDACTED]');
  });

  it('the primitive every writer uses redacts values, then serialises', () => {
    const value = { text: 'Authorization: Bearer abc123def456"}', nested: ['?token=zzz")'], api_key: 'plain' };
    expect(JSON.parse(toRedactedJson(value))).toEqual({ text: 'Authorization: [REDACTED]"}', nested: ['?token=[REDACTED]")'], api_key: '[REDACTED]' });
  });
});
