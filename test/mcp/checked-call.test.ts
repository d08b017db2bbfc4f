// The checked tool call (src/mcp/checked-call.ts) against the fixture servers (in process): name
// resolution, refusals that never reach a server, the call context in the request `_meta`,
// upstream error codes read from the result `_meta`, and the interceptor hook.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_CONTEXT_META_KEY, type CallContext } from '../../src/core/tool-result-contract.js';
import { callCheckedTool, type FinishedToolCall, type ToolCallInterceptor } from '../../src/mcp/checked-call.js';
import { McpHost } from '../../src/mcp/index.js';
import { verifySuite } from '../../src/tasks/verify.js';
import { fixtureRepoRoot, fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { inProcessHost } from '../support/in-process-host.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-checked-'));
const context: CallContext = { taskId: 'task-7', runId: 'run-3', workspace: path.join(workDir, 'task-7') };
let host: McpHost;

beforeAll(async () => {
  host = await McpHost.start([fixtureSpec('echo'), fixtureSpec('meta')], {
    requireAll: true,
    startupTimeoutMs: 90_000,
    logger: silent,
    connectServer: inProcessHost().connectServer,
  });
}, 120_000);
afterAll(async () => {
  await host?.close();
});

/** An interceptor that records what it saw and answers with the real outcome. */
function watching(): ToolCallInterceptor & { seen: FinishedToolCall[] } {
  const seen: FinishedToolCall[] = [];
  return { seen, afterCall: async (call) => (seen.push(call), call.outcome) };
}

describe('callCheckedTool', () => {
  it('sends the call context in the request _meta, by function name or canonical name', async () => {
    const functionName = host.findByCanonical('meta/echo_meta')?.functionName ?? '';
    expect(functionName).toBe('meta__echo_meta');
    for (const name of [functionName, 'meta/echo_meta']) {
      const outcome = await callCheckedTool(host, name, { note: 'x' }, { context });
      expect(outcome).toMatchObject({ canonicalName: 'meta/echo_meta', isError: false });
      expect(JSON.parse(outcome.text)[CALL_CONTEXT_META_KEY]).toEqual(context);
    }
  });

  it('sends no context when a direct host call has none', async () => {
    const outcome = await host.callTool('meta/echo_meta', {});
    const meta = JSON.parse(outcome.text) as Record<string, unknown> | null;
    expect(meta?.[CALL_CONTEXT_META_KEY]).toBeUndefined();
  });

  it('refuses unknown tools and bad arguments without sending them, with codes and bare reasons', async () => {
    const interceptor = watching();
    const options = { context, interceptor };
    const unknown = await callCheckedTool(host, 'nowhere/tool', {}, options);
    expect(unknown).toMatchObject({
      isError: true,
      errorCode: 'unknown_tool',
      text: '[Tool error] Unknown tool: nowhere/tool',
      refusal: { reason: 'unknown_tool' },
    });
    const unparseable = await callCheckedTool(host, 'echo/echo', undefined, { ...options, argumentsError: 'Unexpected end of JSON input' });
    expect(unparseable).toMatchObject({
      errorCode: 'invalid_arguments',
      refusal: { reason: 'unparseable_arguments', detail: 'Unexpected end of JSON input' },
      text: '[Tool error] Invalid arguments for echo/echo: the arguments were not valid JSON (Unexpected end of JSON input)',
    });
    const array = await callCheckedTool(host, 'echo/echo', ['a'], options);
    expect(array).toMatchObject({
      errorCode: 'invalid_arguments',
      refusal: { reason: 'not_an_object', detail: 'arguments must be a JSON object, got an array' },
    });
    const schema = await callCheckedTool(host, 'echo/echo', { text: 42 }, options);
    expect(schema).toMatchObject({ errorCode: 'invalid_arguments', refusal: { reason: 'schema_violation', detail: 'arguments/text must be string' } });
    expect(schema.text).toBe('[Tool error] Invalid arguments for echo/echo: arguments/text must be string');
    expect(interceptor.seen).toHaveLength(0);
    // A JSON string is normalised to its object and sent.
    const fromString = await callCheckedTool(host, 'echo/echo', '{"text":"from a string"}', options);
    expect(fromString).toMatchObject({ isError: false, text: 'from a string' });
    expect(interceptor.seen.map((call) => [call.tool.canonicalName, call.arguments, call.context])).toEqual([
      ['echo/echo', { text: 'from a string' }, context],
    ]);
  });

  it('reads an upstream failure code from the result _meta into the outcome', async () => {
    const outcome = await callCheckedTool(host, 'meta/upstream_fail', { code: 'upstream_rate_limited', status: 429, retryAfterSec: 7 }, { context });
    expect(outcome).toMatchObject({
      isError: true,
      errorCode: 'upstream_rate_limited',
      errorMeta: { code: 'upstream_rate_limited', status: 429, retryAfterSec: 7, upstream: 'api.example.test' },
      text: '[Tool error] api.example.test answered 429 (upstream_rate_limited)',
    });
    // A server's plain error result has no code.
    const plain = await callCheckedTool(host, 'echo/fail', { message: 'no' }, { context });
    expect(plain.isError).toBe(true);
    expect(plain.errorCode).toBeUndefined();
  });

  it('returns what the interceptor decides for a finished call', async () => {
    const interceptor: ToolCallInterceptor = {
      afterCall: async (call) =>
        call.outcome.errorCode === 'upstream_server_error'
          ? { ...call.outcome, isError: false, errorCode: undefined, text: `replacement for ${call.tool.canonicalName}` }
          : call.outcome,
    };
    const replaced = await callCheckedTool(host, 'meta/upstream_fail', { code: 'upstream_server_error', status: 503 }, { context, interceptor });
    expect(replaced).toMatchObject({ isError: false, text: 'replacement for meta/upstream_fail' });
    const kept = await callCheckedTool(host, 'echo/echo', { text: 'real' }, { context, interceptor });
    expect(kept).toMatchObject({ isError: false, text: 'real' });
  });
});

describe('m3 tasks verify sends its own call context', () => {
  it('gives each replayed task its media/outputs/<id> folder as the workspace', async () => {
    const suite = {
      gtFile: 'gt.json',
      tasksFile: 'tasks.json',
      gt: [
        {
          id: 'V1',
          tier: 'basic' as const,
          question: 'Ask the meta service what it sees.',
          final_reply: 'it sees V1',
          steps: [{ step: 1, calls: [{ name: 'meta/echo_meta', arguments: {} }] }],
          facts: [{ step: 1, call: 0, textIncludes: path.join(fixtureRepoRoot, 'media', 'outputs', 'V1'), reply: 'V1' }],
        },
      ],
      tasks: [{ id: 'V1', tier: 'basic' as const, question: 'What does the service see?', prompt: 'Ask the meta service what it sees.' }],
    };
    const report = await verifySuite({ suite, host, root: fixtureRepoRoot });
    expect(report.tasks[0]?.problems).toEqual([]);
    expect(report.tasks[0]).toMatchObject({ status: 'passed', factsHeld: 1 });
  });
});
