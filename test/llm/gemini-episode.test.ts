// The Gemini driver through @google/genai against the mock: a two-round episode with
// synthesized call ids (the Developer API gives none), function responses paired with their
// calls, images as inlineData, and API-given ids echoed back when there are some.
import { describe, expect, it } from 'vitest';
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

type Part = {
  text?: string;
  inlineData?: { mimeType: string; data: string };
  functionCall?: { name: string; args: unknown; id?: string };
  functionResponse?: { name: string; response: Record<string, unknown>; id?: string };
};
interface GenerateBody {
  contents: Array<{ role: string; parts: Part[] }>;
  systemInstruction?: { parts: Array<{ text: string }> };
  tools: Array<{ functionDeclarations: Array<{ name: string; parametersJsonSchema: unknown }> }>;
  generationConfig?: { maxOutputTokens?: number };
}

describe('gemini driver against the mock', () => {
  const getMock = useMockLlm();

  it('runs a two-round episode with synthesized call ids and inlineData images', async () => {
    const mock = getMock();
    const { task, crop, round1, round2 } = await runTwoRoundEpisode('gemini', mock);
    expect(round1.toolCalls.map((call) => call.id)).toEqual(['vision_detect_objects_1_1', 'ocr_read_text_1_2', 'image_crop_1_3']);
    expect(round1.toolCalls[0]?.arguments).toEqual({ image: 'media/task.png', threshold: 0.5 });

    expect(round2.stopReason).toBe('end');

    const requests = mock.generations();
    expect(requests.map((request) => request.valid)).toEqual([true, true]);
    expect(requests[0]?.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(requests[0]?.authFingerprint).toBe(keyFingerprint(testKeys.gemini));
    const body = requests[1]?.body as GenerateBody;
    expect(body.systemInstruction?.parts[0]?.text).toBe(systemPrompt);
    expect(body.generationConfig?.maxOutputTokens).toBe(512);
    expect(body.tools[0]?.functionDeclarations.map((declaration) => declaration.parametersJsonSchema)).toEqual(episodeTools.map((tool) => tool.inputSchema));
    expect(body.contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    expect(body.contents[0]?.parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: task.data } });
    // Ids we invented are not sent: the API never issued them.
    expect(body.contents[1]?.parts.map((part) => part.functionCall)).toEqual(
      roundOneTurn.toolCalls?.map((call) => ({ name: call.name, args: call.arguments })),
    );

    const answer = body.contents[2]?.parts ?? [];
    expect(answer.slice(0, 3).map((part) => part.functionResponse?.name)).toEqual(['vision_detect_objects', 'ocr_read_text', 'image_crop']);
    expect(answer[0]?.functionResponse?.response).toEqual({ output: '{"objects":[{"label":"square","score":0.91}]}' });
    expect(answer[1]?.functionResponse?.response).toEqual({ error: 'no text found in the image' });
    expect(answer[3]?.text).toContain('image_crop_1_3');
    expect(answer[4]).toEqual({ inlineData: { mimeType: 'image/jpeg', data: crop.data } });
  });

  it('echoes API-given call ids in the function responses, in call order', async () => {
    const mock = getMock();
    const driver = await driverFor('gemini', mock);
    const calls = roundOneTurn.toolCalls!.map((call, index) => ({ ...call, id: `fc-${index}` }));
    mock.enqueue({ toolCalls: calls }, finalTurn);
    const first = firstRequest(await taskImage());
    const round1 = await driver.generate(first);
    expect(round1.toolCalls.map((call) => call.id)).toEqual(['fc-0', 'fc-1', 'fc-2']);
    const second = secondRequest(first, round1.toolCalls, await toolImage());
    const tool = second.messages[2];
    if (tool?.role === 'tool') tool.results.reverse(); // results may arrive in any order
    await driver.generate(second);
    const request = mock.generations()[1];
    expect(request?.valid).toBe(true);
    const parts = (request?.body as GenerateBody).contents[2]?.parts ?? [];
    expect(parts.slice(0, 3).map((part) => part.functionResponse?.id)).toEqual(['fc-0', 'fc-1', 'fc-2']);
    expect((request?.body as GenerateBody).contents[1]?.parts.map((part) => part.functionCall?.id)).toEqual(['fc-0', 'fc-1', 'fc-2']);
  });
});
