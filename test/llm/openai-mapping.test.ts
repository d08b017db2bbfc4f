// Pure Chat Completions mappers on recorded-shape fixtures (OpenAI, DeepSeek, vLLM/Qwen3).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Message, ToolResultsMessage } from '../../src/core/messages.js';
import { ProviderError } from '../../src/errors/index.js';
import { toOpenAiRequest } from '../../src/llm/openai/request.js';
import { fromOpenAiResponse, stripThinking } from '../../src/llm/openai/response.js';
import { chatPresets } from '../../src/llm/presets.js';
import type { GenerateRequest } from '../../src/llm/types.js';
import { episodeTools, taskImage, toolImage } from './helpers.js';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const openai = chatPresets.openai!;
const vllm = chatPresets.vllm!;
const options = { round: 2, spec: 'test:model' };

describe('fromOpenAiResponse', () => {
  it('maps parallel tool calls and usage with cached tokens (OpenAI)', () => {
    const response = fromOpenAiResponse(fixture('openai-chat-tool-calls.json'), options);
    expect(response.text).toBe('');
    expect(response.stopReason).toBe('tool_calls');
    expect(response.toolCalls).toEqual([
      {
        id: 'call_Xk9aQ2mV7bN4cR1tY6uI8oP3',
        name: 'vision_detect_objects',
        arguments: { image: 'media/42.png', threshold: 0.4 },
        argumentsText: '{"image":"media/42.png","threshold":0.4}',
      },
      { id: 'call_Lm3nB8vC2xZ5aS7dF9gH1jK4', name: 'ocr_read_text', arguments: { image: 'media/42.png' }, argumentsText: '{"image":"media/42.png"}' },
    ]);
    expect(response.usage).toEqual({ inputTokens: 2316, outputTokens: 61, cachedTokens: 1920 });
    expect(response.warnings).toEqual([]);
  });

  it('keeps DeepSeek reasoning_content out of the text', () => {
    const response = fromOpenAiResponse(fixture('openai-deepseek-reasoner.json'), options);
    expect(response.text).toBe('No, the task is not complete yet: the barcode has not been decoded.');
    expect(response.stopReason).toBe('end');
    expect(response.usage.cachedTokens).toBe(768);
  });

  it('strips <think>, synthesizes missing ids, and flags malformed arguments (vLLM Qwen3)', () => {
    const response = fromOpenAiResponse(fixture('openai-vllm-qwen3-no-ids.json'), options);
    expect(response.text).toBe('Let me look that up.');
    expect(response.toolCalls.map((call) => call.id)).toEqual(['weather_current_2_1', 'maps_static_2_2', 'clock_now_2_3']);
    const [weather, maps, clock] = response.toolCalls;
    expect(weather?.arguments).toEqual({ city: 'Paris' });
    expect(maps?.arguments).toBeUndefined();
    expect(maps?.argumentsError).toMatch(/not valid JSON/);
    expect(maps?.argumentsText).toBe('{"center": "Paris", "zoom": 12');
    expect(clock?.arguments).toEqual({});
    expect(clock?.argumentsError).toBeUndefined();
    expect(response.warnings).toEqual([expect.stringContaining('maps_static_2_2 (maps_static): tool arguments are not valid JSON')]);
    expect(response.usage).toEqual({ inputTokens: 1204, outputTokens: 86, cachedTokens: 0 });
  });

  it('rejects non-object arguments and reports refusals', () => {
    const body = {
      choices: [
        {
          message: { content: null, refusal: 'I cannot help with that.', tool_calls: [{ id: 'c1', function: { name: 't', arguments: '[1,2]' } }] },
          finish_reason: 'stop',
        },
      ],
    };
    const response = fromOpenAiResponse(body, options);
    expect(response.toolCalls[0]?.argumentsError).toMatch(/must be a JSON object, got an array/);
    expect(response.text).toBe('I cannot help with that.');
    expect(response.warnings).toContain('the model refused the request');
    expect(response.stopReason).toBe('tool_calls');
  });

  it('fails with a ProviderError naming the field on a body that is not a chat completion', () => {
    expect(() => fromOpenAiResponse({ choices: [] }, options)).toThrow(ProviderError);
    expect(() => fromOpenAiResponse({ object: 'error' }, options)).toThrow(/test:model: unexpected Chat Completions response \(choices:/);
  });

  it('strips complete, dangling-close and dangling-open think blocks', () => {
    expect(stripThinking('<think>a</think>b<think>c</think> d')).toBe('b d');
    expect(stripThinking('reasoning without an opening tag</think>\nanswer')).toBe('answer');
    expect(stripThinking('answer<think>cut off')).toBe('answer');
    expect(stripThinking('plain')).toBe('plain');
  });
});

describe('toOpenAiRequest', () => {
  it('puts the system prompt first, sends text-only user content as a string, and uses the preset token field', () => {
    const request: GenerateRequest = {
      system: 'sys',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
      tools: [],
      maxTokens: 99,
      temperature: 0.2,
      seed: 7,
    };
    expect(toOpenAiRequest(request, 'm', vllm).body).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hello' },
      ],
      max_tokens: 99,
      temperature: 0.2,
      seed: 7,
    });
    expect(toOpenAiRequest(request, 'm', openai).body).toHaveProperty('max_completion_tokens', 99);
  });

  it('labels several images of one tool result and sends a malformed call back as {} on every preset', async () => {
    const [first, second] = [await taskImage(), await toolImage()];
    const results: ToolResultsMessage = {
      role: 'tool',
      results: [
        { callId: 'c1', name: 'image_crop', content: [first, second], isError: false },
        { callId: 'c2', name: 'ocr_read_text', content: [], isError: false },
      ],
    };
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Calling tools.' }],
        toolCalls: [
          { id: 'c1', name: 'image_crop', arguments: { image: 'a.png' } },
          { id: 'c2', name: 'ocr_read_text', arguments: undefined, argumentsText: '{"image": ', argumentsError: 'not valid JSON' },
        ],
      },
      results,
    ];
    const { body, warnings } = toOpenAiRequest({ messages, tools: episodeTools, maxTokens: 10 }, 'm', openai);
    expect(warnings).toEqual([]);
    expect(body.messages[1]).toMatchObject({ role: 'assistant', content: 'Calling tools.' });
    const assistant = body.messages[1] as { tool_calls: Array<{ function: { arguments: string } }> };
    expect(assistant.tool_calls.map((call) => call.function.arguments)).toEqual(['{"image":"a.png"}', '{}']);
    // vLLM parses history arguments as JSON: one policy for every preset, the raw text stays in the call record.
    const compatible = toOpenAiRequest({ messages, tools: episodeTools, maxTokens: 10 }, 'm', vllm).body.messages[1] as typeof assistant;
    expect(compatible.tool_calls.map((call) => call.function.arguments)).toEqual(['{"image":"a.png"}', '{}']);
    expect(body.messages[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: '(2 images returned; shown in the next message)' });
    expect(body.messages[3]).toEqual({ role: 'tool', tool_call_id: 'c2', content: '(no output)' });
    const followUp = body.messages[4] as { role: string; content: Array<{ type: string; text?: string }> };
    expect(followUp.role).toBe('user');
    expect(followUp.content.map((part) => part.text ?? part.type)).toEqual([
      'Image 1 of 2 from tool call c1 (image_crop):',
      'image_url',
      'Image 2 of 2 from tool call c1 (image_crop):',
      'image_url',
    ]);
  });
});
