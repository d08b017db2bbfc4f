// Messages through the demo's API: the benchmark's agent loop against the mock LLM and real MCP
// servers, the event stream, multi-turn prior turns, the session log, run-store rows, the
// per-session lock, cancel, server filtering, model errors and the tool playground.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSwitches } from '../../src/config/switches.js';
import { createModelChoice, startDemoServer } from '../../src/demo/index.js';
import { createLogger } from '../../src/log/logger.js';
import { episodesForRun, getRun, openStore, toolCallsForEpisode } from '../../src/store/index.js';
import { repoRoot } from '../support/shared-assets.js';
import { collectEvents, pageHeaders, startDemoHarness, testApiKey, visitorHeaders, type DemoHarness } from './demo-harness.js';

let harness: DemoHarness;

async function post(route: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${harness.url}${route.replace(/^\//, '')}`, { method: 'POST', headers: pageHeaders(harness.url), body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function newSession(): Promise<string> {
  return (await post('/api/sessions', {})).json.id as string;
}

async function uploadPng(sessionId: string): Promise<{ id: string; path: string }> {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#d04020' } })
    .png()
    .toBuffer();
  const response = await fetch(`${harness.url}api/sessions/${sessionId}/images`, { method: 'POST', headers: pageHeaders(harness.url, false), body: png });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; path: string };
}

const ended = (episodeId: string) => (event: { type: string; episodeId: string }) => event.type === 'episode_end' && event.episodeId === episodeId;

interface ChatBody {
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function: { name: string } }>;
}

beforeAll(async () => {
  harness = await startDemoHarness({ inProcess: true, servers: ['math', 'imagesorcery-mcp'] });
});
afterAll(async () => {
  await harness?.close();
});

describe('demo chat over the agent loop', () => {
  it('runs a message: live events, a session log without payloads, store rows, and the reply as a prior turn', async () => {
    const sessionId = await newSession();
    harness.mock.enqueue({ toolCalls: [{ name: harness.functionName('math/add'), arguments: { firstNumber: 2, secondNumber: 3 } }] }, { text: '2 + 3 = 5.' });
    const started = await post(`/api/sessions/${sessionId}/messages`, { text: 'What is 2 + 3?', model: 'openai:mock-model' });
    expect(started.status).toBe(202);
    const episodeId = started.json.episodeId as string;
    const events = await collectEvents(harness.url, sessionId, ended(episodeId));
    expect(events.map((line) => line.event.type)).toEqual([
      'user_message',
      'round_start',
      'model_call',
      'tool_call_start',
      'tool_call_end',
      'round_start',
      'model_call',
      'final',
      'episode_end',
    ]);
    expect(events.map((line) => line.id)).toEqual(events.map((_, index) => index + 1));
    const toolEnd = events.find((line) => line.event.type === 'tool_call_end')?.event;
    expect(toolEnd).toMatchObject({ name: 'math/add', arguments: { firstNumber: 2, secondNumber: 3 }, result: '5', isError: false });
    const end = events.at(-1)?.event as unknown as { status: string; reply: string; logFile: string };
    expect(end).toMatchObject({ status: 'ok', reply: '2 + 3 = 5.' });

    const log = JSON.parse(readFileSync(path.join(harness.logDir, path.basename(end.logFile)), 'utf8')) as Record<string, unknown>;
    expect(path.basename(end.logFile)).toMatch(new RegExp(`^\\d{8}-\\d{6}-\\d{6}_${sessionId}\\.json$`));
    expect(log).toMatchObject({
      session_id: sessionId,
      request_text: 'What is 2 + 3?',
      images: [],
      max_step: 3,
      max_concurrent: 4,
      final_reply: '2 + 3 = 5.',
      status: 'ok',
      steps: [{ step: 1, calls: [{ name: 'math/add', arguments: { firstNumber: 2, secondNumber: 3 }, result: '5' }] }],
      dialogue: [{ work: { tool_calls: [{ name: 'math/add' }] }, end: 'yes' }],
    });

    const run = getRun(harness.store, harness.demo.runId ?? '');
    expect(run).toMatchObject({ modelSpec: 'openai:mock-model', modelLabel: 'demo', status: 'running' });
    const episode = episodesForRun(harness.store, run?.runId ?? '').find((row) => row.taskId === `${sessionId}/${episodeId}`);
    expect(episode).toMatchObject({ status: 'ok', model: 'openai:mock-model', rounds: 1, toolCallCount: 1 });
    expect(episode?.prediction).toMatchObject({ final_reply: '2 + 3 = 5.', steps: [{ calls: [{ name: 'math/add', result: '5' }] }] });
    expect(toolCallsForEpisode(harness.store, episode?.id ?? 0)).toEqual([
      expect.objectContaining({ canonicalName: 'math/add', resultText: '5', isError: false }),
    ]);

    // The second message carries the first turn (question and answer) as prior messages.
    harness.mock.enqueue({ text: 'Times four, that is 20.' });
    const second = await post(`/api/sessions/${sessionId}/messages`, { text: 'And times four?', model: 'openai:mock-model' });
    await collectEvents(harness.url, sessionId, ended(second.json.episodeId as string));
    const body = harness.mock.generations().at(-1)?.body as ChatBody;
    expect(body.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'user']);
    expect(JSON.stringify(body.messages[1]?.content)).toContain('What is 2 + 3?');
    expect(body.messages[2]?.content).toBe('2 + 3 = 5.');
    expect(JSON.stringify(body.messages[3]?.content)).toContain('And times four?');
  });

  it('gives uploads to the model as images and to tools as paths', async () => {
    const sessionId = await newSession();
    const image = await uploadPng(sessionId);
    harness.mock.enqueue(
      { toolCalls: [{ name: harness.functionName('imagesorcery-mcp/get_metadata'), arguments: { input_path: image.path } }] },
      { text: 'It is 64 by 48 pixels.' },
    );
    const started = await post(`/api/sessions/${sessionId}/messages`, { text: 'How big is this image?', model: 'openai:mock-model', imageIds: [image.id] });
    const events = await collectEvents(harness.url, sessionId, ended(started.json.episodeId as string));
    const first = harness.mock.generations().at(-2)?.body as ChatBody;
    const user = first.messages.find((message) => message.role === 'user')?.content as Array<{ type: string; text?: string; image_url?: { url: string } }>;
    expect(user[0]?.text).toBe(`How big is this image?\n\n[with images]\n- ${image.id}: file=${image.path}`);
    expect(user[1]?.image_url?.url).toMatch(/^data:image\/png;base64,/);
    const toolEnd = events.find((line) => line.event.type === 'tool_call_end')?.event as unknown as { result: string; isError: boolean };
    expect(toolEnd.isError).toBe(false);
    expect(JSON.parse(toolEnd.result)).toMatchObject({ width: 64, height: 48, format: 'png' });
    const end = events.at(-1)?.event as unknown as { logFile: string };
    const log = readFileSync(path.join(harness.logDir, path.basename(end.logFile)), 'utf8');
    expect(JSON.parse(log)).toMatchObject({ images: [{ image_id: image.id, file_path: image.path, url: `/api/sessions/${sessionId}/images/${image.id}` }] });
    expect(log).not.toMatch(/base64|iVBORw0KGgo/);
  });

  it('holds one message per session at a time, and Cancel stops a running episode', async () => {
    const sessionId = await newSession();
    harness.mock.enqueue({ text: 'too late', delayMs: 30_000 });
    const started = await post(`/api/sessions/${sessionId}/messages`, { text: 'Take your time.', model: 'openai:mock-model' });
    const episodeId = started.json.episodeId as string;
    const busy = await post(`/api/sessions/${sessionId}/messages`, { text: 'And another thing', model: 'openai:mock-model' });
    expect(busy.status).toBe(409);
    expect(busy.json).toMatchObject({ error: { code: 'session_busy' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await post(`/api/sessions/${sessionId}/cancel`, { episodeId })).json).toEqual({ cancelled: true, episodeId });
    const events = await collectEvents(harness.url, sessionId, ended(episodeId), 25_000);
    // The reply would take 30 s and then end the episode completed: status cancelled proves the cancel stopped it.
    expect(events.at(-1)?.event).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
    const episode = episodesForRun(harness.store, harness.demo.runId ?? '').find((row) => row.taskId === `${sessionId}/${episodeId}`);
    expect(episode).toMatchObject({ status: 'infra_failure', errorCode: 'cancelled' });
    expect((await post(`/api/sessions/${sessionId}/cancel`, {})).json).toEqual({ cancelled: false, episodeId: null });
  });

  it('offers only the chosen servers, and shows model errors instead of swallowing them', async () => {
    const sessionId = await newSession();
    harness.mock.enqueue(
      { toolCalls: [{ name: harness.functionName('imagesorcery-mcp/get_metadata'), arguments: { input_path: 'x.png' } }] },
      { text: 'no luck' },
    );
    const started = await post(`/api/sessions/${sessionId}/messages`, { text: 'Use math only', model: 'openai:mock-model', servers: ['math'] });
    const events = await collectEvents(harness.url, sessionId, ended(started.json.episodeId as string));
    const offered = (harness.mock.generations().at(-2)?.body as ChatBody).tools?.map((tool) => tool.function.name) ?? [];
    expect(offered).toHaveLength(22);
    expect(offered.every((name) => name.startsWith('math__'))).toBe(true);
    expect(events.find((line) => line.event.type === 'tool_call_end')?.event).toMatchObject({ isError: true, errorCode: 'unknown_tool' });
    expect((await post(`/api/sessions/${sessionId}/messages`, { text: 'x', model: 'openai:mock-model', servers: ['nope'] })).json).toMatchObject({
      error: { message: expect.stringContaining('servers: not running here: nope') },
    });

    harness.mock.enqueue({ fault: { kind: 'status', status: 400, message: `bad request for key ${testApiKey}` } });
    const failing = await post(`/api/sessions/${sessionId}/messages`, { text: 'Fail please', model: 'openai:mock-model' });
    const failed = await collectEvents(harness.url, sessionId, ended(failing.json.episodeId as string));
    const end = failed.at(-1)?.event as unknown as { status: string; error: { code: string; message: string } };
    expect(end.status).toBe('error');
    expect(end.error.code).toBe('provider_invalid_request');
    expect(end.error.message).toMatch(/400/);
    expect(JSON.stringify(failed)).not.toContain(testApiKey);
  });

  it('ends the episode on the page even when the demo itself fails (here: a closed run store)', async () => {
    const storeFile = path.join(harness.logDir, 'broken.sqlite');
    const store = openStore(storeFile);
    const broken = await startDemoServer({
      toolHost: harness.host,
      models: await createModelChoice(['openai:mock-model'], { OPENAI_API_KEY: testApiKey, OPENAI_BASE_URL: harness.mock.openAiBaseUrl }, 10_000),
      switches: parseSwitches({}),
      port: 0,
      root: repoRoot,
      uploadsDir: harness.uploadsDir,
      logDir: harness.logDir,
      store,
      logger: createLogger('silent'),
      loopLimits: { maxStep: 1, maxConcurrent: 1, topTools: 0, maxNewTokens: 64 },
    });
    try {
      store.close();
      const headers = pageHeaders(broken.url);
      const session = (await (await fetch(`${broken.url}api/sessions`, { method: 'POST', headers })).json()) as { id: string };
      const send = () =>
        fetch(`${broken.url}api/sessions/${session.id}/messages`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ text: 'hi', model: 'openai:mock-model' }),
        });
      const started = (await (await send()).json()) as { episodeId: string };
      const events = await collectEvents(broken.url, session.id, ended(started.episodeId), 60_000);
      expect(events.at(-1)?.event).toMatchObject({ status: 'error', error: { code: 'internal_error', message: expect.stringContaining('closed') } });
      expect((await send()).status).toBe(202);
    } finally {
      await broken.close();
    }
  });

  it('calls tools directly from the playground, with schema checks and stored output images', async () => {
    const sessionId = await newSession();
    const sum = await post('/api/tools/call', { sessionId, tool: 'math/add', arguments: { firstNumber: 1.5, secondNumber: 2 } });
    expect(sum.json).toMatchObject({ tool: 'math/add', text: '3.5', isError: false, images: [] });
    const invalid = await post('/api/tools/call', { sessionId, tool: 'math/add', arguments: { firstNumber: 'one' } });
    expect(invalid.json).toMatchObject({
      isError: true,
      errorCode: 'invalid_arguments',
      text: expect.stringContaining("must have required property 'secondNumber'"),
    });
    expect((await post('/api/tools/call', { sessionId, tool: 'math/nope', arguments: {} })).status).toBe(404);

    const image = await uploadPng(sessionId);
    const gray = await post('/api/tools/call', { sessionId, tool: 'imagesorcery-mcp/grayscale', arguments: { input_path: image.path } });
    expect(gray.json.isError).toBe(false);
    const images = gray.json.images as Array<{ url: string; source: string; width: number }>;
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ source: 'imagesorcery-mcp/grayscale', width: 64 });
    const served = await fetch(`${harness.url}${images[0]?.url.slice(1)}`, { headers: visitorHeaders() });
    const grayBytes = Buffer.from(await served.arrayBuffer());
    // A gray #d04020 has every colour channel at its luminance (about 113), not the red 208 of the
    // input; the transport policy may send it as one channel or as an exact RGB/palette encoding.
    const stats = await sharp(grayBytes).stats();
    const colour = stats.channels.slice(0, Math.min(3, stats.channels.length));
    for (const channel of colour) {
      expect(channel.mean).toBeGreaterThan(90);
      expect(channel.mean).toBeLessThan(130);
      expect(Math.abs(channel.mean - (colour[0]?.mean ?? 0))).toBeLessThan(1);
    }
  });
});
