// The OpenAI driver through the real SDK against the mock: a two-round episode, asserting on
// the wire requests the mock recorded (and validated like the real API would).
import { describe, expect, it } from 'vitest';
import { keyFingerprint } from '../support/mock-llm/index.js';
import { runTwoRoundEpisode, useMockLlm, driverFor, episodeTools, firstRequest, systemPrompt, taskImage, testKeys } from './helpers.js';

interface ChatBody {
  model: string;
  messages: Array<{
    role: string;
    content?: unknown;
    tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
    tool_call_id?: string;
  }>;
  tools: Array<{ type: string; function: { name: string; parameters: unknown } }>;
  max_completion_tokens?: number;
  max_tokens?: number;
  parallel_tool_calls?: boolean;
  tool_choice?: string;
}

describe('openai driver against the mock', () => {
  const getMock = useMockLlm();

  it('runs a two-round episode: parallel calls, results paired by id, tool image in a follow-up user message', async () => {
    const mock = getMock();
    const { task, crop, round1, round2, ids } = await runTwoRoundEpisode('openai', mock);
    expect(round1.toolCalls.map((call) => call.name)).toEqual(['vision_detect_objects', 'ocr_read_text', 'image_crop']);
    expect(round1.toolCalls[2]?.arguments).toEqual({ image: 'media/task.png', box: [8, 8, 24, 24] });
    expect(new Set(ids).size).toBe(3);

    expect(round2.stopReason).toBe('end');
    expect(round2.latencyMs).toBeGreaterThanOrEqual(0);

    const [wire1, wire2] = mock.generations();
    expect(mock.generations().every((request) => request.valid)).toBe(true);
    expect(wire1?.authFingerprint).toBe(keyFingerprint(testKeys.openai));
    expect(wire1?.headers.authorization).toBe('[REDACTED]');

    const body = wire2?.body as ChatBody;
    expect(body.model).toBe('gpt-4o');
    expect(body.max_completion_tokens).toBe(512);
    expect(body.parallel_tool_calls).toBe(true);
    expect(body.tools.map((tool) => tool.function.parameters)).toEqual(episodeTools.map((tool) => tool.inputSchema));
    expect(body.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'tool', 'user']);
    expect(body.messages[0]?.content).toBe(systemPrompt);
    expect(body.messages[1]?.content).toEqual([
      { type: 'text', text: 'What is in this image?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${task.data}` } },
    ]);
    expect(body.messages[2]?.tool_calls?.map((call) => call.id)).toEqual(ids);
    expect(body.messages.slice(3, 6).map((message) => message.tool_call_id)).toEqual(ids);
    expect(body.messages[4]?.content).toBe('Error: no text found in the image');
    expect(body.messages[5]?.content).toContain('{"saved":"media/task_cropped.jpg"}');

    const followUp = body.messages[6]?.content as Array<{ type: string; text?: string; image_url?: { url: string } }>;
    expect(followUp[0]?.text).toContain(ids[2]);
    expect(followUp[0]?.text).toContain('image_crop');
    expect(followUp[1]?.image_url?.url).toBe(`data:image/jpeg;base64,${crop.data}`);
    expect(followUp).toHaveLength(2);
  });

  it('keeps reasoning_content and <think> blocks out of the visible text', async () => {
    const mock = getMock();
    const driver = await driverFor('openai', mock);
    mock.enqueue({ reasoning: 'The user wants a yes or no. Answer no.', text: '<think>hidden plan</think>yes' });
    const response = await driver.generate({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Done?' }] }], tools: [], maxTokens: 16 });
    expect(response.text).toBe('yes');
    expect(JSON.stringify(response.raw?.response)).toContain('reasoning_content');
  });

  it('asks for a text-only answer with tool_choice none', async () => {
    const mock = getMock();
    const driver = await driverFor('openai', mock);
    mock.enqueue({ text: 'final answer' });
    const request = { ...firstRequest(await taskImage()), toolChoice: 'none' as const };
    const response = await driver.generate(request);
    expect(response.text).toBe('final answer');
    const body = mock.generations()[0]?.body as ChatBody;
    expect(body.tool_choice).toBe('none');
    expect(body.parallel_tool_calls).toBeUndefined();
  });
});
