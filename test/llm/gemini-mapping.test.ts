// Pure Gemini mappers on recorded-shape fixtures: thought parts, synthesized ids, thought
// signatures carried to the next request, blocked prompts, malformed calls, error bodies.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages.js';
import { ProviderError } from '../../src/errors/index.js';
import { classifyGeminiError, retryDelayFromBody } from '../../src/llm/gemini/errors.js';
import { isSynthesizedCallId, skipSignature, toGeminiRequest } from '../../src/llm/gemini/request.js';
import { fromGeminiResponse } from '../../src/llm/gemini/response.js';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const context = { spec: 'gemini:test', hint: 'check GEMINI_API_KEY' };

describe('fromGeminiResponse', () => {
  it('skips thought parts, synthesizes ids per round, and bills thinking as output', () => {
    const response = fromGeminiResponse(fixture('gemini-function-calls.json'), { round: 3, spec: 's' });
    expect(response.text).toBe('');
    expect(response.stopReason).toBe('tool_calls');
    expect(response.toolCalls.map((call) => [call.id, call.name, call.arguments])).toEqual([
      ['vision_detect_objects_3_1', 'vision_detect_objects', { image: 'media/42.png' }],
      ['ocr_read_text_3_2', 'ocr_read_text', { image: 'media/42.png' }],
    ]);
    expect(response.usage).toEqual({ inputTokens: 1841, outputTokens: 38 + 132, cachedTokens: 1024 });
  });

  it('carries the thought signature to the next request, invisibly to JSON', () => {
    const response = fromGeminiResponse(fixture('gemini-function-calls.json'), { round: 1, spec: 's' });
    const [signed, unsigned] = response.toolCalls;
    expect(JSON.stringify(signed)).not.toContain('CiQB');
    const copied = { ...signed! }; // the agent may copy calls into its history
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [], toolCalls: [copied, unsigned!] },
      {
        role: 'tool',
        results: [
          { callId: unsigned!.id, name: unsigned!.name, content: [{ type: 'text', text: 'no text' }], isError: false },
          { callId: copied.id, name: copied.name, content: [{ type: 'text', text: '[]' }], isError: false },
        ],
      },
    ];
    const { params } = toGeminiRequest({ messages: history, tools: [], maxTokens: 10 }, 'gemini-2.5-flash');
    const modelParts = params.contents[1]?.parts ?? [];
    expect(modelParts[0]).toEqual({
      functionCall: { name: 'vision_detect_objects', args: { image: 'media/42.png' } },
      thoughtSignature: 'CiQB0e2Kb7mRpQ3w4vXy5zA6bC7dE8fG9hI0jK1lM2nO3pQ4rS5t',
    });
    expect(modelParts[1]).not.toHaveProperty('thoughtSignature');
    // Responses follow the call order, whatever order the results came in.
    expect(params.contents[2]?.parts?.map((part) => part.functionResponse?.name)).toEqual(['vision_detect_objects', 'ocr_read_text']);
  });

  it('uses the documented stand-in signature for unsigned history on Gemini 3', () => {
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [],
        toolCalls: [
          { id: 'a_1_1', name: 'a', arguments: {} },
          { id: 'b_1_2', name: 'b', arguments: {} },
        ],
      },
      {
        role: 'tool',
        results: [
          { callId: 'a_1_1', name: 'a', content: [], isError: false },
          { callId: 'b_1_2', name: 'b', content: [], isError: false },
        ],
      },
    ];
    const parts = toGeminiRequest({ messages: history, tools: [], maxTokens: 10 }, 'gemini-3-pro-preview').params.contents[1]?.parts ?? [];
    expect(parts.map((part) => part.thoughtSignature)).toEqual([skipSignature, undefined]);
  });

  it("reports a blocked prompt as a refusal, and a malformed function call as the model's failed call", () => {
    const blocked = fromGeminiResponse(fixture('gemini-blocked.json'), { round: 1, spec: 's' });
    expect(blocked).toMatchObject({ stopReason: 'refusal', stopDetail: 'prompt blocked: PROHIBITED_CONTENT' });
    expect(blocked.warnings).toEqual(['the response has no candidates (prompt blocked: PROHIBITED_CONTENT)']);
    const malformed = fromGeminiResponse(fixture('gemini-malformed-call.json'), { round: 2, spec: 's' });
    expect(malformed.stopReason).toBe('malformed_call');
    expect(malformed.toolCalls).toEqual([
      {
        id: 'maps_static_2_1',
        name: 'maps_static',
        arguments: undefined,
        argumentsText: 'Malformed function call: print(default_api.maps_static(center="Paris", zoom=)',
        argumentsError: expect.stringMatching(/^Gemini could not parse the model's function call \(MALFORMED_FUNCTION_CALL\)/),
      },
    ]);
    expect(malformed.warnings[0]).toMatch(/^generation ended with MALFORMED_FUNCTION_CALL: Malformed function call/);
  });
});

describe('toGeminiRequest', () => {
  it('maps system messages, strips $schema, and turns off calling for the final pass', () => {
    const tools = [{ name: 't', canonicalName: 's/t', description: 'd', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' } }];
    const { params } = toGeminiRequest(
      {
        system: 'A',
        messages: [
          { role: 'system', content: 'B' },
          { role: 'user', content: [{ type: 'text', text: 'q' }] },
        ],
        tools,
        maxTokens: 5,
        toolChoice: 'none',
        seed: 3,
        temperature: 0,
      },
      'gemini-2.5-pro',
    );
    expect(params.config).toEqual({
      maxOutputTokens: 5,
      systemInstruction: 'A\n\nB',
      tools: [{ functionDeclarations: [{ name: 't', description: 'd', parametersJsonSchema: { type: 'object' } }] }],
      toolConfig: { functionCallingConfig: { mode: 'NONE' } },
      temperature: 0,
      seed: 3,
    });
  });

  it('recognises only the ids it synthesized', () => {
    expect(isSynthesizedCallId('maps_static_2_1', 'maps_static')).toBe(true);
    expect(isSynthesizedCallId('maps_static_x_1', 'maps_static')).toBe(false);
    expect(isSynthesizedCallId('call_abc', 'maps_static')).toBe(false);
  });
});

describe('classifyGeminiError', () => {
  class ApiError extends Error {
    constructor(
      message: string,
      readonly status: number,
    ) {
      super(message);
    }
  }
  const body = (code: number, status: string, message: string, details?: unknown[]) =>
    JSON.stringify({ error: { code, message, status, ...(details ? { details } : {}) } });

  it('honours RetryInfo in the body when no header is present', () => {
    const retryInfo = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '17s' }];
    expect(retryDelayFromBody(JSON.parse(body(429, 'RESOURCE_EXHAUSTED', 'quota', retryInfo)))).toBe(17_000);
    const classified = classifyGeminiError(
      { error: new ApiError(body(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted', retryInfo), 429) },
      ApiError,
      context,
    );
    expect(classified).toEqual({
      errorClass: 'rate_limit',
      retryAfterMs: 17_000,
      message: 'gemini:test: HTTP 429: rate limited (Resource has been exhausted)',
    });
  });

  it('prefers the retry-after header, and recognises context overflow and a bad key sent as HTTP 400', () => {
    const headers = new Headers({ 'retry-after': '2' });
    expect(classifyGeminiError({ error: new ApiError(body(503, 'UNAVAILABLE', 'overloaded'), 503), headers }, ApiError, context)).toMatchObject({
      errorClass: 'transient',
      retryAfterMs: 2000,
    });
    const tooLong = new ApiError(body(400, 'INVALID_ARGUMENT', 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).'), 400);
    expect(classifyGeminiError({ error: tooLong }, ApiError, context).errorClass).toBe('context_length');
    const badKey = classifyGeminiError(
      { error: new ApiError(body(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.'), 400) },
      ApiError,
      context,
    );
    expect(badKey).toMatchObject({ errorClass: 'auth' });
    expect(badKey.message).toContain('GEMINI_API_KEY');
    expect(classifyGeminiError({ error: new ProviderError('auth', 'x') }, ApiError, context).errorClass).toBe('auth');
  });
});
