// Provider rules that span turns, proven through whole episodes: the real agent loop, a real
// MCP fixture server, the real SDKs and the wire-level mock, which answers 400 with the vendor's
// own error body whenever a request breaks a rule of the real API (test/support/mock-llm/).
//   - a request whose history holds tool calls must still define tools (Anthropic), and forbids
//     further calls through the tool-choice setting;
//   - signed thinking (Anthropic), reasoning_content (DeepSeek thinking mode) and encrypted
//     reasoning items (Responses API, store: false) come back unchanged with their calls.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runEpisode } from '../../src/agent/episode.js';
import type { AgentOptions } from '../../src/agent/options.js';
import { createDriver } from '../../src/llm/registry.js';
import { McpHost } from '../../src/mcp/index.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { startMockLlm, type MockLlm, type MockTurn, type RecordedRequest } from '../support/mock-llm/index.js';
import { testKeys } from './helpers.js';

const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-wire-rules-'));
let host: McpHost;
let mock: MockLlm;
let echo: string;

beforeAll(async () => {
  host = await McpHost.start([fixtureSpec('echo')], { requireAll: true, callTimeoutMs: 10_000 });
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

function options(maxStep: number): AgentOptions {
  return {
    maxStep,
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
}

const envs = {
  anthropic: () => ({ ANTHROPIC_API_KEY: testKeys.anthropic, ANTHROPIC_BASE_URL: mock.url }),
  openai: () => ({ OPENAI_API_KEY: testKeys.openai, OPENAI_BASE_URL: mock.openAiBaseUrl }),
  gemini: () => ({ GEMINI_API_KEY: testKeys.gemini, GEMINI_BASE_URL: mock.url }),
  deepseek: () => ({ DEEPSEEK_API_KEY: 'sk-test-deepseek-0123456789', DEEPSEEK_BASE_URL: mock.baseUrlFor('deepseek') }),
};

/** Runs one episode and returns the generation requests it made, in order. */
async function episode(spec: string, env: Record<string, string>, turns: MockTurn[], maxStep: number) {
  const before = mock.generations().length;
  mock.enqueue(...turns);
  const driver = await createDriver(spec, { env, timeoutMs: 10_000 });
  const trace = await runEpisode(
    {
      taskId: 't1',
      question: 'Echo hello, then answer.',
      userText: 'Echo hello, then answer.',
      images: [],
      cwd: workDir,
      callContext: { taskId: 't1', workspace: workDir },
    },
    { driver, host, options: options(maxStep) },
  );
  const requests = mock.generations().slice(before);
  return { trace, requests, bodies: requests.map((request) => request.body as Record<string, unknown>) };
}

const expectAllValid = (requests: RecordedRequest[]) =>
  expect(requests.map((request) => [request.valid, request.issues.join('; ')])).toEqual(requests.map(() => [true, '']));

const callTurn = (extra: Partial<MockTurn> = {}): MockTurn => ({ toolCalls: [{ name: echo, arguments: { text: 'hello' } }], ...extra });

describe('tool history without offered tools (the final-answer request after --max-step)', () => {
  it.each([
    ['anthropic:claude-sonnet-4-6', envs.anthropic],
    ['openai:gpt-4o', envs.openai],
    ['gemini:gemini-2.5-flash', envs.gemini],
    ['openai-responses:gpt-4.1', envs.openai],
  ])('%s: the final request is valid and forbids calls', async (spec, env) => {
    const { trace, requests, bodies } = await episode(spec, env(), [callTurn(), { text: 'It said hello.' }], 1);
    expectAllValid(requests);
    expect(trace.finalReply).toBe('It said hello.');
    const final = bodies[1]!;
    if (spec.startsWith('anthropic')) {
      expect((final.tools as Array<{ name: string }>).map((tool) => tool.name)).toContain(echo);
      expect(final.tool_choice).toEqual({ type: 'none' });
    }
  });
});

describe('reasoning that must come back with its calls', () => {
  it('anthropic: the signed thinking block opens the assistant turn of the next request, unchanged', async () => {
    const { trace, requests, bodies } = await episode(
      'anthropic:claude-sonnet-4-6',
      envs.anthropic(),
      [callTurn({ reasoning: 'I should echo first.' }), { text: 'Done: hello.' }],
      2,
    );
    expectAllValid(requests);
    expect(trace.finalReply).toBe('Done: hello.');
    const assistant = (bodies[1]!.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>)[1]!;
    expect(assistant.role).toBe('assistant');
    expect(assistant.content[0]).toMatchObject({ type: 'thinking', thinking: 'I should echo first.' });
    expect(assistant.content[1]).toMatchObject({ type: 'tool_use', name: echo });
  });

  it('anthropic: redacted thinking and the final answer after --max-step keep the same rules', async () => {
    const { requests, bodies } = await episode(
      'anthropic:claude-sonnet-4-6',
      envs.anthropic(),
      [callTurn({ redactedReasoning: 'EncryptedOpaqueBlob==', reasoning: 'plan' }), { text: 'ok' }],
      1,
    );
    expectAllValid(requests);
    const assistant = (bodies[1]!.messages as Array<{ content: Array<Record<string, unknown>> }>)[1]!;
    expect(assistant.content.slice(0, 2).map((block) => block.type)).toEqual(['redacted_thinking', 'thinking']);
    expect(assistant.content[0]).toEqual({ type: 'redacted_thinking', data: 'EncryptedOpaqueBlob==' });
  });

  it('deepseek thinking mode: reasoning_content goes back on the assistant tool-call message', async () => {
    const { trace, requests, bodies } = await episode(
      'deepseek:deepseek-reasoner',
      envs.deepseek(),
      [callTurn({ reasoning: 'Use echo.' }), { text: 'hello' }],
      2,
    );
    expectAllValid(requests);
    expect(trace.finalReply).toBe('hello');
    const assistant = (bodies[1]!.messages as Array<Record<string, unknown>>).find((message) => message.role === 'assistant');
    expect(assistant?.reasoning_content).toBe('Use echo.');
  });

  it('responses API on a reasoning model: encrypted reasoning is requested and passed back before its call', async () => {
    const { requests, bodies } = await episode('openai-responses:o4-mini', envs.openai(), [callTurn({ reasoning: 'Plan: echo.' }), { text: 'hello' }], 2);
    expectAllValid(requests);
    expect(bodies[0]).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] });
    const input = bodies[1]!.input as Array<Record<string, unknown>>;
    const reasoning = input.findIndex((item) => item.type === 'reasoning');
    expect(reasoning).toBeGreaterThanOrEqual(0);
    expect(input[reasoning]).toMatchObject({ id: expect.stringMatching(/^rs_mock_/), encrypted_content: expect.any(String) });
    expect(input[reasoning + 1]).toMatchObject({ type: 'function_call', name: echo });
  });

  it('responses API on a non-reasoning model: no encrypted-content include (the API refuses it there)', async () => {
    const { requests, bodies } = await episode('openai-responses:gpt-4.1', envs.openai(), [callTurn(), { text: 'hello' }], 2);
    expectAllValid(requests);
    expect(bodies[0]).not.toHaveProperty('include');
  });
});
