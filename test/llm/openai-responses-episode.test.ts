// The Responses API driver (`openai-responses:`) through the real SDK against the mock: tool
// images travel inside their function_call_output; plus the pure response mapper.
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { fromResponsesResponse } from '../../src/llm/openai/responses-response.js';
import { runTwoRoundEpisode, useMockLlm, episodeTools, systemPrompt } from './helpers.js';

type Item = { type?: string; role?: string; content?: unknown; call_id?: string; output?: unknown; name?: string };
interface ResponsesBody {
  model: string;
  instructions?: string;
  input: Item[];
  tools: Array<{ name: string; parameters: unknown }>;
  max_output_tokens: number;
  store: boolean;
}

describe('openai-responses driver against the mock', () => {
  const getMock = useMockLlm();

  it('runs a two-round episode with the tool image inside its function_call_output', async () => {
    const mock = getMock();
    const { task, crop, ids } = await runTwoRoundEpisode('openai-responses', mock);
    expect(ids).toHaveLength(3);

    const requests = mock.generations();
    expect(requests.map((request) => [request.path, request.valid])).toEqual([
      ['/v1/responses', true],
      ['/v1/responses', true],
    ]);
    const body = requests[1]?.body as ResponsesBody;
    expect(body).toMatchObject({ model: 'gpt-4.1', instructions: systemPrompt, max_output_tokens: 512, store: false });
    expect(body.tools.map((tool) => tool.parameters)).toEqual(episodeTools.map((tool) => tool.inputSchema));
    expect(body.input.map((item) => item.type ?? item.role)).toEqual([
      'user',
      'function_call',
      'function_call',
      'function_call',
      'function_call_output',
      'function_call_output',
      'function_call_output',
    ]);
    expect(body.input[0]?.content).toEqual([
      { type: 'input_text', text: 'What is in this image?' },
      { type: 'input_image', image_url: `data:image/png;base64,${task.data}`, detail: 'auto' },
    ]);
    expect(body.input.slice(4).map((item) => item.call_id)).toEqual(ids);
    expect(body.input[5]?.output).toBe('Error: no text found in the image');
    expect(body.input[6]?.output).toEqual([
      { type: 'input_text', text: '{"saved":"media/task_cropped.jpg"}' },
      { type: 'input_image', image_url: `data:image/jpeg;base64,${crop.data}`, detail: 'auto' },
    ]);
  });

  it('streams a response the SDK can consume', async () => {
    const mock = getMock();
    const client = new OpenAI({ apiKey: 'k', baseURL: mock.openAiBaseUrl, maxRetries: 0 });
    mock.enqueue({ text: 'streamed' });
    const stream = await client.responses.create({ model: 'gpt-4.1', input: 'hi', stream: true });
    const types: string[] = [];
    let finalText = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.completed') finalText = fromResponsesResponse(event.response, { spec: 'stream' }).text;
    }
    expect(types).toEqual(['response.created', 'response.completed']);
    expect(finalText).toBe('streamed');
  });
});

describe('fromResponsesResponse', () => {
  it('keeps reasoning out, reports refusals and truncation', () => {
    const body = {
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      output: [
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'secret plan' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Partial answer' }] },
      ],
      usage: { input_tokens: 10, output_tokens: 5, input_tokens_details: { cached_tokens: 4 } },
    };
    const response = fromResponsesResponse(body, { spec: 's' });
    expect(response).toMatchObject({ text: 'Partial answer', stopReason: 'max_tokens', usage: { inputTokens: 10, outputTokens: 5, cachedTokens: 4 } });
    const refused = fromResponsesResponse(
      { status: 'completed', output: [{ type: 'message', content: [{ type: 'refusal', refusal: 'No.' }] }] },
      { spec: 's' },
    );
    expect(refused.text).toBe('No.');
    expect(refused.warnings).toEqual(['the model refused the request']);
    expect(() => fromResponsesResponse({ output: 'x' }, { spec: 's' })).toThrow(/s: unexpected Responses API response/);
  });
});
