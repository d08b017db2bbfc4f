// The same model error scored the same on every vendor, proven through whole episodes: the real
// agent loop, an MCP fixture server (in this process: test/support/in-process-host.ts; the host's
// path after the transport is the usual one), the real SDKs and the wire-level mock, which produces
// each vendor's unusual stops (Gemini MALFORMED_FUNCTION_CALL and SAFETY; Anthropic refusal,
// pause_turn, model_context_window_exceeded; OpenAI refusal, content_filter, `length` in the
// middle of a tool call) and answers 400 to a history whose broken call is sent back as it came.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runEpisode } from '../../src/agent/episode.js';
import type { AgentOptions } from '../../src/agent/options.js';
import { toPrediction } from '../../src/agent/to-prediction.js';
import { createDriver } from '../../src/llm/registry.js';
import { McpHost } from '../../src/mcp/index.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { inProcessHost } from '../support/in-process-host.js';
import { startMockLlm, type MockLlm, type MockTurn, type RecordedRequest } from '../support/mock-llm/index.js';
import { testKeys } from './helpers.js';

const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-model-errors-'));
let host: McpHost;
let mock: MockLlm;
let echo: string;

beforeAll(async () => {
  host = await McpHost.start([fixtureSpec('echo')], { requireAll: true, callTimeoutMs: 10_000, connectServer: inProcessHost().connectServer });
  echo = host.tools.find((tool) => tool.canonicalName === 'echo/echo')!.functionName;
});
afterAll(async () => {
  await host?.close();
});
beforeEach(async () => {
  mock = await startMockLlm();
});
afterEach(async () => {
  await mock?.close();
});

const options: AgentOptions = {
  maxStep: 3,
  maxConcurrent: 4,
  topTools: 0,
  maxNewTokens: 256,
  mergePrepareWork: true,
  skipEndStage: true,
  instructionRole: 'user',
  toolResultMaxChars: 2000,
  imagePolicy: { recodeOverKb: 512, maxEdge: 1568 },
  retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 },
  toolCallTimeoutMs: 10_000,
  imageRoots: [workDir],
};

const envOf: Record<string, () => Record<string, string>> = {
  anthropic: () => ({ ANTHROPIC_API_KEY: testKeys.anthropic, ANTHROPIC_BASE_URL: mock.url }),
  openai: () => ({ OPENAI_API_KEY: testKeys.openai, OPENAI_BASE_URL: mock.openAiBaseUrl }),
  'openai-responses': () => ({ OPENAI_API_KEY: testKeys.openai, OPENAI_BASE_URL: mock.openAiBaseUrl }),
  gemini: () => ({ GEMINI_API_KEY: testKeys.gemini, GEMINI_BASE_URL: mock.url }),
  vllm: () => ({ VLLM_BASE_URL: mock.baseUrlFor('vllm') }),
  openrouter: () => ({ OPENROUTER_API_KEY: 'sk-or-test-0123456789', OPENROUTER_BASE_URL: mock.baseUrlFor('openrouter') }),
};

async function episode(spec: string, turns: MockTurn[]) {
  mock.enqueue(...turns);
  const provider = spec.slice(0, spec.indexOf(':'));
  const driver = await createDriver(spec, { env: envOf[provider]!(), timeoutMs: 10_000 });
  const input = { taskId: 't1', question: 'Echo hello.', userText: 'Echo hello.', images: [], cwd: workDir, callContext: { taskId: 't1', workspace: workDir } };
  const trace = await runEpisode(input, { driver, host, options });
  const requests = mock.generations();
  return { trace, requests, bodies: requests.map((request) => request.body as Record<string, unknown>) };
}

const expectAllValid = (requests: RecordedRequest[]) =>
  expect(requests.map((request) => [request.valid, request.issues.join('; ')])).toEqual(requests.map(() => [true, '']));

/** The turn that makes each vendor emit a call the harness cannot use. */
const malformedTurn = (vendor: string): MockTurn =>
  vendor === 'gemini'
    ? { stopReason: 'malformed_call', toolCalls: [{ name: echo, rawArguments: 'text=)' }] }
    : vendor === 'anthropic'
      ? { toolCalls: [{ name: echo, rawArguments: '"hello"' }] }
      : { toolCalls: [{ name: echo, rawArguments: '{"text": "hel' }] };

/** The arguments of the broken call as the second request sent it back. */
function sentBack(vendor: string, body: Record<string, unknown>): unknown {
  if (vendor === 'gemini') {
    const contents = body.contents as Array<{ role: string; parts: Array<{ functionCall?: { args?: unknown } }> }>;
    return contents.find((content) => content.role === 'model')?.parts.find((part) => part.functionCall)?.functionCall?.args;
  }
  if (vendor === 'anthropic') {
    const messages = body.messages as Array<{ role: string; content: Array<{ type: string; input?: unknown }> }>;
    return messages.find((message) => message.role === 'assistant')?.content.find((block) => block.type === 'tool_use')?.input;
  }
  if (vendor === 'openai-responses')
    return (body.input as Array<{ type?: string; arguments?: string }>).find((item) => item.type === 'function_call')?.arguments;
  const messages = body.messages as Array<{ role: string; tool_calls?: Array<{ function: { arguments: string } }> }>;
  return messages.find((message) => message.tool_calls)?.tool_calls?.[0]?.function.arguments;
}

describe("a malformed call is the model's failed call on every driver, and the episode goes on", () => {
  it.each([
    ['openai', 'openai:gpt-4o'],
    ['openai-responses', 'openai-responses:gpt-4.1'],
    ['anthropic', 'anthropic:claude-sonnet-4-6'],
    ['gemini', 'gemini:gemini-2.5-flash'],
    ['vllm', 'vllm:llama-3.1-8b'],
  ])('%s', async (vendor, spec) => {
    const { trace, requests, bodies } = await episode(spec, [malformedTurn(vendor), { text: 'Sorry, hello.' }]);
    // The mock refuses a history whose call arguments are not a JSON object: every request passed.
    expectAllValid(requests);
    expect(requests).toHaveLength(2);
    const [call] = trace.rounds[0]!.calls;
    expect(call?.call.name).toBe(echo);
    expect(call?.call.argumentsError).toBeDefined();
    expect(call?.call.argumentsText).toBeTruthy();
    expect(call?.isError).toBe(true);
    expect(trace.rounds[0]!.unparseable).toBe(true);
    expect(sentBack(vendor, bodies[1]!)).toEqual(vendor === 'gemini' || vendor === 'anthropic' ? {} : '{}');
    expect(trace).toMatchObject({ finalReply: 'Sorry, hello.', end: { status: 'answered' } });
  });
});

describe('unusual stops end the episode with their own status, never as a silent empty answer', () => {
  it.each([
    [
      'anthropic:claude-sonnet-4-6',
      { text: 'Hello..', stopReason: 'refusal', stopExplanation: 'Declined: it could enable cyber harm.' },
      'refused',
      /cyber harm/,
    ],
    ['anthropic:claude-sonnet-4-6', { stopReason: 'paused' }, 'paused', /pause_turn/],
    ['anthropic:claude-sonnet-4-6', { stopReason: 'context_exceeded' }, 'context_exceeded', /model_context_window_exceeded/],
    ['openai:gpt-4o', { stopReason: 'refusal', stopExplanation: 'I cannot help with that.' }, 'refused', /I cannot help with that/],
    ['openai:gpt-4o', { text: 'partial', stopReason: 'safety' }, 'refused', /content_filter/],
    ['openai:gpt-4o', { text: 'The answer is', stopReason: 'max_tokens' }, 'truncated', undefined],
    ['openai-responses:gpt-4.1', { stopReason: 'refusal', stopExplanation: 'No.' }, 'refused', /No\./],
    ['gemini:gemini-2.5-flash', { stopReason: 'safety', stopExplanation: 'blocked for safety' }, 'refused', /SAFETY/],
  ] as Array<[string, MockTurn, string, RegExp | undefined]>)('%s %j → %s', async (spec, turn, status, detail) => {
    const { trace, requests } = await episode(spec, [turn]);
    expectAllValid(requests);
    expect(trace.end?.status).toBe(status);
    if (detail) expect(trace.end?.detail).toMatch(detail);
    if (status !== 'truncated') expect(trace.warnings.length).toBeGreaterThan(0);
    if (turn.text) expect(trace.finalReply).toBe(turn.text);
    const prediction = toPrediction({ id: 't1' }, 'Echo hello.', trace) as Record<string, unknown>;
    expect(prediction.end_status).toBe(status);
  });

  it('openai: `length` in the middle of a tool call is a failed call, and the episode goes on', async () => {
    const { trace, requests } = await episode('openai:gpt-4o', [
      { stopReason: 'max_tokens', toolCalls: [{ name: echo, rawArguments: '{"text": "hel' }] },
      { text: 'hello' },
    ]);
    expectAllValid(requests);
    expect(trace.rounds[0]!.calls[0]?.call.argumentsError).toMatch(/not valid JSON/);
    expect(trace.warnings.some((warning) => /token limit in the middle of a tool call/.test(warning))).toBe(true);
    expect(trace).toMatchObject({ finalReply: 'hello', end: { status: 'answered' } });
  });
});

describe('OpenRouter with a Gemini model: reasoning details come back with their turn', () => {
  it("sends each tool-calling turn's reasoning_details back unchanged, so round 2 is not refused", async () => {
    const { trace, requests, bodies } = await episode('openrouter:google/gemini-3-pro-preview', [
      { reasoning: 'I will echo.', toolCalls: [{ name: echo, arguments: { text: 'hello' } }] },
      { text: 'hello' },
    ]);
    expectAllValid(requests);
    expect(trace.finalReply).toBe('hello');
    const assistant = (bodies[1]!.messages as Array<Record<string, unknown>>).find((message) => message.role === 'assistant');
    expect(assistant?.reasoning_details).toEqual([
      { type: 'reasoning.text', text: 'I will echo.', format: 'google-gemini-v1', index: 0 },
      expect.objectContaining({ type: 'reasoning.encrypted', format: 'google-gemini-v1' }),
    ]);
  });
});

describe("an image-heavy episode stays within the vendor's per-request image limit", () => {
  it('anthropic: 12 rounds of 9 image results (108 images) reach the final answer without a refused request', async () => {
    const imageHost = await McpHost.start([fixtureSpec('image')], { requireAll: true, callTimeoutMs: 20_000, connectServer: inProcessHost().connectServer });
    try {
      const make = imageHost.tools.find((tool) => tool.canonicalName === 'image/make_image')!.functionName;
      const round: MockTurn = { toolCalls: Array.from({ length: 9 }, (_, index) => ({ name: make, arguments: { width: 8 + index, height: 8 } })) };
      mock.enqueue(...Array.from({ length: 12 }, () => round), { text: 'Nine crops a round.' });
      const driver = await createDriver('anthropic:claude-sonnet-4-6', { env: envOf.anthropic!(), timeoutMs: 10_000 });
      const input = { taskId: 't1', question: 'Crop.', userText: 'Crop.', images: [], cwd: workDir, callContext: { taskId: 't1', workspace: workDir } };
      const trace = await runEpisode(input, { driver, host: imageHost, options: { ...options, maxStep: 12, maxConcurrent: 9 } });
      expectAllValid(mock.generations());
      expect(mock.generations()).toHaveLength(13);
      expect(trace.finalReply).toBe('Nine crops a round.');
      expect(trace.warnings).toContain(
        "8 image(s) elided from this request, oldest tool images first: over Anthropic's per-request limit of 100 images and 32 MB",
      );
    } finally {
      await imageHost.close();
    }
  });
});
