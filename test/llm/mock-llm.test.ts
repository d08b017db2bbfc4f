// The mock LLM server itself: request validation like the real APIs, SSE streams consumed by
// the real SDKs, queue semantics, and the CLI entry used by shell and end-to-end tests. The CLI
// runs as a real child (its output, SIGTERM and exit status are the point) from one esbuild bundle
// of cli.ts and everything it imports, made once for the file: started through tsx, each child
// transpiled and loaded the module graph itself (about 0.6 CPU-s a start, against 0.1).
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { spawn } from 'node:child_process';
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-assets.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { toolImage } from './helpers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'm3-mock-llm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const calls = [
  { name: 'weather_current', arguments: { city: 'Paris' } },
  { name: 'maps_static', arguments: { center: 'Paris', zoom: 12 } },
];

describe('mock LLM server', () => {
  let mock: MockLlm;
  beforeEach(async () => {
    mock = await startMockLlm({ models: ['mock-a', 'mock-b'] });
  });
  afterEach(async () => {
    await mock.close();
  });

  it('rejects requests the real APIs would reject, records them as invalid, and keeps the queue', async () => {
    mock.enqueue({ text: 'kept' });
    const jpeg = (await toolImage()).data;
    const openAiOrphanTool = await post(`${mock.openAiBaseUrl}/chat/completions`, {
      model: 'm',
      messages: [
        { role: 'user', content: 'x' },
        { role: 'tool', tool_call_id: 'nope', content: 'r' },
      ],
    });
    const openAiWrongBytes = await post(`${mock.openAiBaseUrl}/chat/completions`, {
      model: 'm',
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${jpeg}` } }] }],
    });
    const anthropicOrder = await post(`${mock.url}/v1/messages`, {
      model: 'm',
      max_tokens: 5,
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'a', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'note' },
            { type: 'tool_result', tool_use_id: 't1', content: 'r' },
          ],
        },
      ],
    });
    const geminiCount = await post(`${mock.url}/v1beta/models/g:generateContent`, {
      contents: [
        { role: 'user', parts: [{ text: 'x' }] },
        { role: 'model', parts: [{ functionCall: { name: 'a', args: {} } }, { functionCall: { name: 'b', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'a', response: { output: 'r' } } }] },
      ],
    });
    expect([openAiOrphanTool.status, openAiWrongBytes.status, anthropicOrder.status, geminiCount.status]).toEqual([400, 400, 400, 400]);
    const issues = mock.requests.map((request) => request.issues.join(' '));
    expect(issues[0]).toMatch(/answers "nope", which is not an open call/);
    expect(issues[1]).toMatch(/image bytes are not image\/png/);
    expect(issues[2]).toMatch(/tool_result blocks must come before any other content/);
    expect(issues[3]).toMatch(/2 function calls need 2 function responses, got 1/);
    expect(mock.requests.every((request) => !request.valid && request.outcome === 'invalid')).toBe(true);
    expect(((await anthropicOrder.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
    expect(mock.pending()).toBe(1);
  });

  it('streams OpenAI chunks the SDK reassembles, with usage on request', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: mock.openAiBaseUrl, maxRetries: 0 });
    mock.enqueue({ text: 'Checking both.', reasoning: 'plan', toolCalls: calls, usage: { inputTokens: 50, outputTokens: 9, cachedTokens: 10 } });
    const stream = await client.chat.completions.create({
      model: 'mock-a',
      messages: [{ role: 'user', content: 'go' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const args = ['', ''];
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) args[call.index] += call.function?.arguments ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('Checking both.');
    expect(args.map((value) => JSON.parse(value) as unknown)).toEqual(calls.map((call) => call.arguments));
    expect(usage?.prompt_tokens_details?.cached_tokens).toBe(10);
    expect(mock.requests[0]?.stream).toBe(true);
  });

  it('streams Anthropic events the SDK assembles into a final message', async () => {
    const client = new Anthropic({ apiKey: 'k', baseURL: mock.url, maxRetries: 0 });
    mock.enqueue({ text: 'Looking.', reasoning: 'think first', toolCalls: calls });
    const message = await client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'go' }] }).finalMessage();
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use']);
    expect(message.content.flatMap((block) => (block.type === 'tool_use' ? [block.input] : []))).toEqual(calls.map((call) => call.arguments));
    expect(message.stop_reason).toBe('tool_use');
  });

  it('streams Gemini SSE chunks through generateContentStream', async () => {
    const ai = new GoogleGenAI({ apiKey: 'k', vertexai: false, httpOptions: { baseUrl: mock.url } });
    mock.enqueue({ text: 'Two calls.', toolCalls: calls });
    const names: string[] = [];
    let text = '';
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'go' })) {
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        if (part.text) text += part.text;
        if (part.functionCall?.name) names.push(part.functionCall.name);
      }
    }
    expect(text).toBe('Two calls.');
    expect(names).toEqual(['weather_current', 'maps_static']);
    expect(mock.requests[0]?.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
  });

  it('lists models, answers 500 when the script runs out, then uses the respond hook and fallback', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: mock.openAiBaseUrl, maxRetries: 0 });
    const listed: string[] = [];
    for await (const model of client.models.list()) listed.push(model.id);
    expect(listed).toEqual(['mock-a', 'mock-b']);
    const exhausted = await post(`${mock.openAiBaseUrl}/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(exhausted.status).toBe(500);
    expect(mock.requests.at(-1)?.outcome).toBe('exhausted');

    const hooked = await startMockLlm({
      respond: (request) => ((request.body as { model: string }).model === 'special' ? { text: 'from hook' } : undefined),
      fallback: { text: 'from fallback' },
    });
    try {
      const hookedClient = new OpenAI({ apiKey: 'k', baseURL: hooked.openAiBaseUrl, maxRetries: 0 });
      const ask = async (model: string) =>
        (await hookedClient.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }] })).choices[0]?.message.content;
      expect([await ask('special'), await ask('plain')]).toEqual(['from hook', 'from fallback']);
    } finally {
      await hooked.close();
    }
  });

  it('fails a stream that drops mid-way', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: mock.openAiBaseUrl, maxRetries: 0 });
    mock.enqueue({ text: 'this stream will be cut', toolCalls: calls, fault: { kind: 'drop' } });
    const consume = async () => {
      const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'go' }], stream: true });
      for await (const chunk of stream) void chunk;
    };
    await expect(consume()).rejects.toThrow();
  });
});

describe('mock LLM CLI', () => {
  const cli = path.join(dir, 'mock-llm-cli.mjs');
  beforeAll(async () => {
    await build({
      entryPoints: [path.join(repoRoot, 'test/support/mock-llm/cli.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: cli,
      logLevel: 'error',
    });
  }, 120_000);

  it('prints its URL, serves the script, records requests, and stops on SIGTERM', async () => {
    const script = path.join(dir, 'script.json');
    const record = path.join(dir, 'requests.jsonl');
    writeFileSync(script, JSON.stringify({ turns: [{ text: 'scripted answer' }], fallback: { text: 'fallback answer' } }));
    const child = spawn(process.execPath, [cli, '--script', script, '--record', record], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /^MOCK_LLM_URL=(http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`mock CLI exited early with ${code}`)));
    });
    const answers: unknown[] = [];
    for (let index = 0; index < 2; index += 1) {
      const response = await post(`${url}/v1/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      answers.push(((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content);
    }
    expect(answers).toEqual(['scripted answer', 'fallback answer']);
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(stdout).toBe(`MOCK_LLM_URL=${url}\n`);
    const lines = readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { turnIndex?: number; model: string });
    expect(lines.map((line) => [line.model, line.turnIndex])).toEqual([
      ['m', 0],
      ['m', undefined],
    ]);
  });

  it('exits with a message naming the bad field of a script', async () => {
    const script = path.join(dir, 'bad.json');
    writeFileSync(script, JSON.stringify({ turns: [{ text: 'ok' }, { fault: { kind: 'status', status: 200 } }] }));
    const child = spawn(process.execPath, [cli, '--script', script], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/bad\.json: at \$\.turns\.1\.fault\.status/);
  });
});
