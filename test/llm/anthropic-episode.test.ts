// The Anthropic driver through the real SDK against the mock: a two-round episode where all
// results of the round travel in ONE user turn as tool_result blocks (the image inside its
// tool_result), merged turns, and never a request that ends on an assistant turn.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages.js';
import { continueText } from '../../src/llm/anthropic/request.js';
import { keyFingerprint } from '../support/mock-llm/index.js';
import {
  runTwoRoundEpisode,
  useMockLlm,
  driverFor,
  episodeTools,
  finalTurn,
  firstRequest,
  roundOneTurn,
  secondRequest,
  systemPrompt,
  taskImage,
  testKeys,
  toolImage,
} from './helpers.js';

type Block = {
  type: string;
  text?: string;
  id?: string;
  tool_use_id?: string;
  is_error?: boolean;
  content?: Block[];
  source?: { type: string; media_type: string; data: string };
};
interface MessagesBody {
  model: string;
  max_tokens: number;
  system?: string;
  messages: Array<{ role: string; content: Block[] }>;
  tools: Array<{ name: string; input_schema: unknown }>;
}

describe('anthropic driver against the mock', () => {
  const getMock = useMockLlm();

  it('runs a two-round episode with all tool results in one user turn and the image inside its tool_result', async () => {
    const mock = getMock();
    const { task, crop, round1, round2, ids } = await runTwoRoundEpisode('anthropic', mock);
    expect(round1.toolCalls.map((call) => call.name)).toEqual(['vision_detect_objects', 'ocr_read_text', 'image_crop']);

    expect(round2.stopReason).toBe('end');

    const requests = mock.generations();
    expect(requests.map((request) => request.valid)).toEqual([true, true]);
    expect(requests[0]?.authFingerprint).toBe(keyFingerprint(testKeys.anthropic));
    const body = requests[1]?.body as MessagesBody;
    expect(body.system).toBe(systemPrompt);
    expect(body.max_tokens).toBe(512);
    expect(body.tools.map((tool) => tool.input_schema)).toEqual(episodeTools.map((tool) => tool.inputSchema));
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[0]?.content[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: task.data } });
    expect(body.messages[1]?.content.map((block) => block.id)).toEqual(ids);

    const results = body.messages[2]?.content ?? [];
    expect(results.map((block) => [block.type, block.tool_use_id])).toEqual(ids.map((id) => ['tool_result', id]));
    expect(results[1]?.is_error).toBe(true);
    expect(results[2]?.content?.map((block) => block.type)).toEqual(['text', 'image']);
    expect(results[2]?.content?.[1]?.source).toEqual({ type: 'base64', media_type: 'image/jpeg', data: crop.data });
    expect(body.messages.at(-1)?.role).toBe('user');
  });

  it('merges an instruction after the tool results into the same user turn, results first', async () => {
    const mock = getMock();
    const driver = await driverFor('anthropic', mock);
    mock.enqueue(roundOneTurn, finalTurn);
    const first = firstRequest(await taskImage());
    const round1 = await driver.generate(first);
    const second = secondRequest(first, round1.toolCalls, await toolImage());
    second.messages.push({ role: 'user', content: [{ type: 'text', text: 'Round 2: answer now if you can.' }] });
    await driver.generate(second);
    const body = mock.generations()[1]?.body as MessagesBody;
    expect(mock.generations()[1]?.valid).toBe(true);
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[2]?.content.map((block) => block.type)).toEqual(['tool_result', 'tool_result', 'tool_result', 'text']);
  });

  it('never sends a history that ends on an assistant turn (no accidental prefill)', async () => {
    const mock = getMock();
    const driver = await driverFor('anthropic', mock);
    mock.enqueue({ text: 'Final: a blue square.' });
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'Describe the image.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'I see a square.' }], toolCalls: [] },
    ];
    const response = await driver.generate({ messages, tools: [], maxTokens: 64 });
    expect(response.text).toBe('Final: a blue square.');
    expect(response.warnings.join(' ')).toMatch(/ended on an assistant turn/);
    const request = mock.generations()[0];
    expect(request?.valid).toBe(true);
    const body = request?.body as MessagesBody;
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: continueText }] });
  });

  it('is rejected by the mock exactly when a request would end on an assistant turn', async () => {
    const mock = getMock();
    const response = await fetch(`${mock.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': testKeys.anthropic },
      body: JSON.stringify({
        model: 'm',
        max_tokens: 8,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'Sure,' },
        ],
      }),
    });
    expect(response.status).toBe(400);
    expect(mock.requests[0]?.valid).toBe(false);
    expect(mock.requests[0]?.issues.join(' ')).toMatch(/ends on an assistant turn/);
  });
});
