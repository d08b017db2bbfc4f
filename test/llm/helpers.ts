// Shared pieces of the provider tests: real images made with sharp, the tool catalog of the
// two-round episode, driver creation against the mock, and the history the agent would build.
import sharp from 'sharp';
import { afterEach, beforeEach, expect } from 'vitest';
import type { ImagePart } from '../../src/core/content.js';
import type { Message, ToolCall, ToolDefinition, ToolResultsMessage } from '../../src/core/messages.js';
import { createDriver } from '../../src/llm/registry.js';
import type { RetryPolicy } from '../../src/llm/retry.js';
import type { GenerateRequest, ModelDriver } from '../../src/llm/types.js';
import { startMockLlm, type MockLlm, type MockTurn } from '../support/mock-llm/index.js';

export type VendorName = 'openai' | 'openai-responses' | 'anthropic' | 'gemini';
export const vendors: VendorName[] = ['openai', 'openai-responses', 'anthropic', 'gemini'];

export const testKeys = {
  openai: 'sk-test-openai-0123456789',
  anthropic: 'sk-ant-test-0123456789',
  gemini: 'AIza-test-gemini-0123456789',
} as const;

export const specs: Record<VendorName, string> = {
  openai: 'openai:gpt-4o',
  'openai-responses': 'openai-responses:gpt-4.1',
  anthropic: 'anthropic:claude-sonnet-4-6',
  gemini: 'gemini:gemini-2.5-flash',
};

export function envFor(vendor: VendorName, mock: MockLlm): Record<string, string> {
  if (vendor === 'openai' || vendor === 'openai-responses') return { OPENAI_API_KEY: testKeys.openai, OPENAI_BASE_URL: mock.openAiBaseUrl };
  if (vendor === 'anthropic') return { ANTHROPIC_API_KEY: testKeys.anthropic, ANTHROPIC_BASE_URL: mock.url };
  return { GEMINI_API_KEY: testKeys.gemini, GEMINI_BASE_URL: mock.url };
}

export function driverFor(vendor: VendorName, mock: MockLlm, timeoutMs = 10_000): Promise<ModelDriver> {
  return createDriver(specs[vendor], { env: envFor(vendor, mock), timeoutMs });
}

/** A 48x32 PNG: red field with a blue square, as a task image. */
export async function taskImage(): Promise<ImagePart> {
  const square = await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 0, g: 0, b: 255 } } })
    .png()
    .toBuffer();
  const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 220, g: 20, b: 20 } } })
    .composite([{ input: square, left: 8, top: 8 }])
    .png()
    .toBuffer();
  return { type: 'image', mediaType: 'image/png', data: png.toString('base64') };
}

/** A 24x24 green JPEG, as the image a crop tool returns. */
export async function toolImage(): Promise<ImagePart> {
  const jpeg = await sharp({ create: { width: 24, height: 24, channels: 3, background: { r: 10, g: 200, b: 60 } } })
    .jpeg()
    .toBuffer();
  return { type: 'image', mediaType: 'image/jpeg', data: jpeg.toString('base64') };
}

const imageArgument = { type: 'object', properties: { image: { type: 'string', description: 'image path' } }, required: ['image'] };

export const episodeTools: ToolDefinition[] = [
  {
    name: 'vision_detect_objects',
    canonicalName: 'vision/detect_objects',
    description: 'Detect objects in an image',
    inputSchema: { ...imageArgument, properties: { ...imageArgument.properties, threshold: { type: 'number' } } },
  },
  { name: 'ocr_read_text', canonicalName: 'ocr/read_text', description: 'Read text in an image', inputSchema: imageArgument },
  {
    name: 'image_crop',
    canonicalName: 'image/crop',
    description: 'Crop an image to a box',
    inputSchema: { ...imageArgument, properties: { ...imageArgument.properties, box: { type: 'array', items: { type: 'number' } } } },
  },
];

/** Round 1 of the episode: three parallel calls. */
export const roundOneTurn: MockTurn = {
  toolCalls: [
    { name: 'vision_detect_objects', arguments: { image: 'media/task.png', threshold: 0.5 } },
    { name: 'ocr_read_text', arguments: { image: 'media/task.png' } },
    { name: 'image_crop', arguments: { image: 'media/task.png', box: [8, 8, 24, 24] } },
  ],
  usage: { inputTokens: 900, outputTokens: 60, cachedTokens: 0 },
};

export const finalTurn: MockTurn = { text: 'The image shows a blue square on a red field.', usage: { inputTokens: 1500, outputTokens: 25, cachedTokens: 512 } };

export const systemPrompt = 'You are a careful vision agent. Use the tools.';

export function firstRequest(image: ImagePart): GenerateRequest {
  return {
    system: systemPrompt,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'What is in this image?' }, image] }],
    tools: episodeTools,
    maxTokens: 512,
  };
}

/** The results the agent would send back: one plain, one error, one with an image. */
export function resultsFor(calls: ToolCall[], image: ImagePart): ToolResultsMessage {
  return {
    role: 'tool',
    results: calls.map((call) => {
      if (call.name === 'vision_detect_objects')
        return { callId: call.id, name: call.name, content: [{ type: 'text', text: '{"objects":[{"label":"square","score":0.91}]}' }], isError: false };
      if (call.name === 'ocr_read_text')
        return { callId: call.id, name: call.name, content: [{ type: 'text', text: 'no text found in the image' }], isError: true };
      return { callId: call.id, name: call.name, content: [{ type: 'text', text: '{"saved":"media/task_cropped.jpg"}' }, image], isError: false };
    }),
  };
}

export function secondRequest(first: GenerateRequest, calls: ToolCall[], image: ImagePart): GenerateRequest {
  const history: Message[] = [...first.messages, { role: 'assistant', content: [], toolCalls: calls }, resultsFor(calls, image)];
  return { ...first, messages: history };
}

export function policy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  return { maxRetries: 2, baseDelayMs: 20, maxDelayMs: 5_000, timeoutMs: 0, ...overrides };
}

/** A fresh mock LLM server per test; returns a getter because the server changes each test. */
export function useMockLlm(): () => MockLlm {
  let mock: MockLlm | undefined;
  beforeEach(async () => {
    mock = await startMockLlm();
  });
  afterEach(async () => {
    await mock?.close();
  });
  return () => {
    if (!mock) throw new Error('the mock LLM server is only available inside a test');
    return mock;
  };
}

/**
 * The episode every vendor test drives: a task image in, three parallel tool calls out, their
 * results back (one carrying an image, one an error), then the final answer; both rounds checked.
 */
export async function runTwoRoundEpisode(vendor: VendorName, mock: MockLlm) {
  const driver = await driverFor(vendor, mock);
  const [task, crop] = await Promise.all([taskImage(), toolImage()]);
  mock.enqueue(roundOneTurn, finalTurn);
  const first = firstRequest(task);
  const round1 = await driver.generate(first);
  expect(round1.stopReason).toBe('tool_calls');
  const ids = round1.toolCalls.map((call) => call.id);
  const round2 = await driver.generate(secondRequest(first, round1.toolCalls, crop));
  expect(round2.text).toBe(finalTurn.text);
  expect(round2.usage).toEqual({ inputTokens: 1500, outputTokens: 25, cachedTokens: 512 });
  return { driver, task, crop, first, round1, round2, ids };
}
