// Live check of each vendor driver against the real API: a two-round exchange with a real
// tool call and an image. Skipped per vendor unless its key is configured. Run with
//   npx vitest run --config test/llm/vitest.live.config.ts
// Models: M3_LIVE_OPENAI_MODEL, M3_LIVE_ANTHROPIC_MODEL, M3_LIVE_GEMINI_MODEL (defaults below).
import { describe, expect, it } from 'vitest';
import { loadEnvironment } from '../../src/config/env-file.js';
import type { ToolDefinition } from '../../src/core/messages.js';
import { costUsd } from '../../src/llm/pricing.js';
import { createDriver } from '../../src/llm/registry.js';
import { generateWithRetry } from '../../src/llm/retry.js';
import type { GenerateRequest } from '../../src/llm/types.js';
import { policy, taskImage } from './helpers.js';

const env = loadEnvironment();
const live = [
  { spec: `openai:${env.M3_LIVE_OPENAI_MODEL ?? 'gpt-4o-mini'}`, ready: Boolean(env.OPENAI_API_KEY) },
  { spec: `anthropic:${env.M3_LIVE_ANTHROPIC_MODEL ?? 'claude-haiku-4-5'}`, ready: Boolean(env.ANTHROPIC_API_KEY) },
  { spec: `gemini:${env.M3_LIVE_GEMINI_MODEL ?? 'gemini-2.5-flash'}`, ready: Boolean(env.GEMINI_API_KEY ?? env.GOOGLE_API_KEY) },
];

const reportColor: ToolDefinition = {
  name: 'report_color',
  canonicalName: 'test/report_color',
  description: 'Record the dominant color of the image. Always call this before answering.',
  inputSchema: { type: 'object', properties: { color: { type: 'string', description: 'one English color word' } }, required: ['color'] },
};

describe.each(live)('$spec (live)', ({ spec, ready }) => {
  it.skipIf(!ready)('calls a tool on an image and answers after the result', async () => {
    const driver = await createDriver(spec, { env, timeoutMs: 120_000 });
    const first: GenerateRequest = {
      system: 'You are a test agent. Call report_color first, then answer with one word.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the dominant color of this image?' }, await taskImage()] }],
      tools: [reportColor],
      maxTokens: 1024,
    };
    const round1 = await generateWithRetry(driver, first, policy({ maxRetries: 2, baseDelayMs: 2_000, maxDelayMs: 30_000 }));
    expect(round1.toolCalls.length).toBeGreaterThan(0);
    const call = round1.toolCalls[0]!;
    expect(call.argumentsError).toBeUndefined();
    expect(String((call.arguments as { color?: unknown }).color).toLowerCase()).toContain('red');
    const round2 = await generateWithRetry(
      driver,
      {
        ...first,
        messages: [
          ...first.messages,
          { role: 'assistant', content: round1.text ? [{ type: 'text', text: round1.text }] : [], toolCalls: round1.toolCalls },
          {
            role: 'tool',
            results: round1.toolCalls.map((item) => ({ callId: item.id, name: item.name, content: [{ type: 'text', text: 'recorded' }], isError: false })),
          },
        ],
      },
      policy({ maxRetries: 2, baseDelayMs: 2_000, maxDelayMs: 30_000 }),
    );
    expect(round2.text.toLowerCase()).toContain('red');
    expect(round2.usage.inputTokens).toBeGreaterThan(0);
    process.stderr.write(
      `${spec}: ${round1.usage.inputTokens + round2.usage.inputTokens} input tokens, cost ${costUsd(spec, round2.usage) ?? 'unknown'} USD (round 2)\n`,
    );
  });
});
