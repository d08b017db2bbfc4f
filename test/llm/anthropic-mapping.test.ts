// Pure Anthropic Messages mappers on a recorded-shape fixture and hand-built histories.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages.js';
import { toAnthropicRequest } from '../../src/llm/anthropic/request.js';
import { fromAnthropicResponse } from '../../src/llm/anthropic/response.js';
import { taskImage } from './helpers.js';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

describe('fromAnthropicResponse', () => {
  it('maps text and tool_use blocks, drops thinking, and counts cache reads and writes as input', () => {
    const response = fromAnthropicResponse(fixture('anthropic-message-tool-use.json'), { spec: 'anthropic:x' });
    expect(response.text).toBe("I'll detect the objects and read the text in parallel.");
    expect(response.text).not.toContain('Two independent tools');
    expect(response.stopReason).toBe('tool_calls');
    expect(response.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, args }))).toEqual([
      { id: 'toolu_01A09q90qw90lq917835lq9', name: 'vision_detect_objects', args: { image: 'media/42.png' } },
      { id: 'toolu_01B7h2k3j4l5m6n7o8p9q0r1', name: 'ocr_read_text', args: { image: 'media/42.png', lang: 'en' } },
    ]);
    expect(response.usage).toEqual({ inputTokens: 312 + 1024 + 2048, outputTokens: 187, cachedTokens: 2048 });
  });

  it('maps stop reasons', () => {
    const body = (stop_reason: string) => ({ content: [{ type: 'text', text: 'x' }], stop_reason, usage: { input_tokens: 1, output_tokens: 1 } });
    expect(fromAnthropicResponse(body('end_turn'), { spec: 's' }).stopReason).toBe('end');
    expect(fromAnthropicResponse(body('max_tokens'), { spec: 's' }).stopReason).toBe('max_tokens');
    expect(fromAnthropicResponse(body('model_context_window_exceeded'), { spec: 's' })).toMatchObject({
      stopReason: 'context_exceeded',
      warnings: ["the conversation exceeds the model's context window"],
    });
    expect(fromAnthropicResponse(body('pause_turn'), { spec: 's' })).toMatchObject({ stopReason: 'paused', stopDetail: 'pause_turn' });
    expect(fromAnthropicResponse(body('something_new'), { spec: 's' })).toMatchObject({
      stopReason: 'other',
      warnings: ['generation ended with stop_reason something_new'],
    });
  });

  it("keeps a refusal's text and explanation, with a warning (never a silent empty answer)", () => {
    const refused = fromAnthropicResponse(
      {
        content: [{ type: 'text', text: 'Hello..' }],
        stop_reason: 'refusal',
        stop_details: { type: 'refusal', category: 'cyber', explanation: 'This request was declined because it could enable cyber harm.' },
        usage: { input_tokens: 1, output_tokens: 1 },
      },
      { spec: 's' },
    );
    expect(refused).toMatchObject({
      text: 'Hello..',
      stopReason: 'refusal',
      stopDetail: 'refusal: category cyber: This request was declined because it could enable cyber harm.',
    });
    expect(refused.warnings[0]).toMatch(/^the model refused the request \(category cyber: This request was declined/);
    expect(() => fromAnthropicResponse({ content: 'x' }, { spec: 's' })).toThrow(/s: unexpected Messages response \(content:/);
  });
});

describe('toAnthropicRequest', () => {
  it('joins system texts, merges same-role turns, skips empty text, and forces object schemas', async () => {
    const image = await taskImage();
    const messages: Message[] = [
      { role: 'system', content: 'Round rules.' },
      { role: 'user', content: [{ type: 'text', text: '' }, image] },
      { role: 'user', content: [{ type: 'text', text: 'Describe it.' }] },
    ];
    const tools = [{ name: 'no_args', canonicalName: 's/no_args', description: 'd', inputSchema: { properties: {} } }];
    const { body, warnings } = toAnthropicRequest({ system: 'Be brief.', messages, tools, maxTokens: 50, toolChoice: 'none' }, 'claude');
    expect(warnings).toEqual([]);
    expect(body.system).toBe('Be brief.\n\nRound rules.');
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: image.data } },
          { type: 'text', text: 'Describe it.' },
        ],
      },
    ]);
    expect(body.tools).toEqual([{ name: 'no_args', description: 'd', input_schema: { properties: {}, type: 'object' } }]);
    expect(body.tool_choice).toEqual({ type: 'none' });
  });

  it('repairs histories the API would reject or misread, with warnings', () => {
    const messages: Message[] = [
      { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }], toolCalls: [] },
      { role: 'user', content: [{ type: 'image', mediaType: 'image/bmp', data: 'Qk0=' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'A bitmap.' }], toolCalls: [] },
    ];
    const { body, warnings } = toAnthropicRequest({ messages, tools: [], maxTokens: 10, temperature: 0.7 }, 'claude');
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(body.messages[2]?.content).toEqual([{ type: 'text', text: '[image of unsupported type image/bmp omitted]' }]);
    expect(warnings).toHaveLength(4);
    expect(warnings.join('\n')).toMatch(/image\/bmp[\s\S]*did not start with a user turn[\s\S]*ended on an assistant turn[\s\S]*temperature 0.7 ignored/);
    expect(body).not.toHaveProperty('temperature');
  });

  it('replays a call whose arguments failed to parse with an empty input and marks error results', () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [], toolCalls: [{ id: 't1', name: 'ocr', arguments: undefined, argumentsText: '{"a":', argumentsError: 'bad' }] },
      { role: 'tool', results: [{ callId: 't1', name: 'ocr', content: [], isError: true }] },
    ];
    const { body } = toAnthropicRequest({ messages, tools: [], maxTokens: 10 }, 'claude');
    expect(body.messages[1]?.content).toEqual([{ type: 'tool_use', id: 't1', name: 'ocr', input: {} }]);
    expect(body.messages[2]?.content).toEqual([{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: '(no output)' }], is_error: true }]);
  });
});
