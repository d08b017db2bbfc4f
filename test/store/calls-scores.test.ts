import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ImagePart } from '../../src/core/content.js';
import { registerSecret } from '../../src/log/redact.js';
import {
  createRun,
  getRun,
  finishEpisode,
  getEpisode,
  modelCallsForEpisode,
  openStore,
  recordModelCall,
  recordToolCall,
  recordToolCalls,
  startEpisode,
  toImageRecord,
  toolCallsForEpisode,
  type Store,
} from '../../src/store/index.js';
import { tempStoreFile } from './temp-store.js';

function storeWithEpisode(): { store: Store; file: string; episodeId: number } {
  const file = tempStoreFile();
  const store = openStore(file);
  createRun(store, { runId: 'r', modelSpec: 'openai:gpt-4o', modelLabel: 'gpt-4o' });
  const episodeId = startEpisode(store, { runId: 'r', taskId: 't1', model: 'openai:gpt-4o' });
  return { store, file, episodeId };
}

describe('model and tool calls', () => {
  it('round-trips a model call with usage and every retry attempt', () => {
    const { store, episodeId } = storeWithEpisode();
    const attempts = [
      { attempt: 1, startedAt: 1700000000000, latencyMs: 30, ok: false, errorClass: 'rate_limit' as const, message: '429 slow down', waitMs: 2000 },
      { attempt: 2, startedAt: 1700000002030, latencyMs: 812, ok: true },
    ];
    const id = recordModelCall(store, {
      episodeId,
      round: 1,
      purpose: 'work',
      request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
      response: { choices: [{ message: { content: 'hello' } }] },
      usage: { inputTokens: 12, outputTokens: 3, cachedTokens: 0 },
      latencyMs: 842.6,
      attempts,
    });
    const [call] = modelCallsForEpisode(store, episodeId);
    expect(call).toMatchObject({ id, round: 1, purpose: 'work', latencyMs: 843, attempts, errorClass: null });
    expect(call?.request).toEqual({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(call?.usage).toEqual({ inputTokens: 12, outputTokens: 3, cachedTokens: 0 });
    expect(() => recordModelCall(store, { episodeId: 4242, round: 1, purpose: 'work' })).toThrow(/episode 4242 does not exist/);
    expect(() => recordModelCall(store, { episodeId, round: -1, purpose: 'work' })).toThrow(/at \$\.round/);
    store.close();
  });

  it('stores tool calls with image facts, in call order', async () => {
    const { store, episodeId } = storeWithEpisode();
    const png = await sharp({ create: { width: 3, height: 2, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const withFacts: ImagePart = {
      type: 'image',
      mediaType: 'image/jpeg',
      data: png.toString('base64'),
      facts: { source: 'vision/crop', originalBytes: 900_000, sentBytes: png.length, width: 3, height: 2, originalMediaType: 'image/png' },
    };
    const bare: ImagePart = { type: 'image', mediaType: 'image/png', data: png.toString('base64') };
    recordToolCalls(store, [
      {
        episodeId,
        round: 1,
        callIndex: 1,
        canonicalName: 'weather/forecast',
        functionName: 'weather__forecast',
        arguments: { city: 'Oslo' },
        resultText: 'rain',
        durationMs: 12,
      },
      {
        episodeId,
        round: 1,
        callIndex: 0,
        canonicalName: 'vision/crop',
        arguments: { path: 'a.png' },
        resultText: '[image]',
        images: [toImageRecord(withFacts), toImageRecord(bare)],
      },
    ]);
    recordToolCall(store, {
      episodeId,
      round: 2,
      callIndex: 0,
      canonicalName: 'vision/ocr',
      arguments: undefined,
      isError: true,
      errorCode: 'tool_timeout',
      resultText: '[Tool error] timed out',
    });
    const calls = toolCallsForEpisode(store, episodeId);
    expect(calls.map((c) => [c.round, c.callIndex, c.canonicalName, c.isError])).toEqual([
      [1, 0, 'vision/crop', false],
      [1, 1, 'weather/forecast', false],
      [2, 0, 'vision/ocr', true],
    ]);
    expect(calls[0]?.images).toEqual([
      { mediaType: 'image/jpeg', originalMediaType: 'image/png', originalBytes: 900_000, sentBytes: png.length, width: 3, height: 2, source: 'vision/crop' },
      { mediaType: 'image/png', originalBytes: png.length, sentBytes: png.length, width: null, height: null },
    ]);
    expect(calls[1]).toMatchObject({ functionName: 'weather__forecast', arguments: { city: 'Oslo' }, durationMs: 12 });
    expect(calls[2]).toMatchObject({ arguments: null, errorCode: 'tool_timeout', resultText: '[Tool error] timed out' });
    store.close();
  });

  it('reduces inline base64 images in requests and responses to their size and hash', async () => {
    const { store, file, episodeId } = storeWithEpisode();
    // Pseudo-random pixels (a linear congruential sequence) so PNG cannot compress them away.
    let seed = 12345;
    const noise = Buffer.from(Array.from({ length: 48 * 48 * 3 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) >> 23));
    const png = await sharp(noise, { raw: { width: 48, height: 48, channels: 3 } })
      .png()
      .toBuffer();
    const base64 = png.toString('base64');
    expect(base64.length).toBeGreaterThan(1024);
    const sha = createHash('sha256').update(png).digest('hex').slice(0, 16);
    recordModelCall(store, {
      episodeId,
      round: 1,
      purpose: 'work',
      request: {
        messages: [
          {
            content: [
              { type: 'image_url', image_url: { url: `data:image/png;base64,${base64}` } },
              { type: 'text', text: 'short stays' },
            ],
          },
        ],
      },
      response: { inline: { mime_type: 'image/png', data: base64 } },
    });
    const [call] = modelCallsForEpisode(store, episodeId);
    const note = `[base64 elided: ${png.length} bytes, sha256 ${sha}]`;
    expect(call?.request).toEqual({
      messages: [
        {
          content: [
            { type: 'image_url', image_url: { url: `data:image/png;base64,${note}` } },
            { type: 'text', text: 'short stays' },
          ],
        },
      ],
    });
    expect(call?.response).toEqual({ inline: { mime_type: 'image/png', data: note } });
    store.close();
    expect(readFileSync(file).toString('latin1')).not.toContain(base64.slice(0, 200));
  });

  it('writes a round of tool calls all together or not at all', () => {
    const { store, episodeId } = storeWithEpisode();
    recordToolCall(store, { episodeId, round: 1, callIndex: 1, canonicalName: 'a/b', arguments: {} });
    const batch = [0, 1, 2].map((callIndex) => ({ episodeId, round: 1, callIndex, canonicalName: 'a/b', arguments: { callIndex } }));
    expect(() => recordToolCalls(store, batch)).toThrow(/already stored for episode/);
    expect(toolCallsForEpisode(store, episodeId).map((c) => c.callIndex)).toEqual([1]);
    store.close();
  });

  it('redacts secrets in every JSON and text column before they reach the file', () => {
    const gatewayToken = 'gateway-token-7f3a9c1e5b';
    registerSecret(gatewayToken);
    const openaiKey = 'sk-proj-abcdefghijklmnop1234567890';
    const googleKey = 'AIzaSyA1234567890abcdefghijklmnopqrstu';
    const { store, file, episodeId } = storeWithEpisode();
    createRun(store, { runId: 'r2', modelSpec: 'openai:gpt-4o', modelLabel: 'gpt-4o', switches: { M3_GATEWAY: gatewayToken } });
    recordModelCall(store, {
      episodeId,
      round: 1,
      purpose: 'work',
      request: { headers: { authorization: `Bearer ${openaiKey}`, 'content-type': 'application/json' }, body: { note: `key is ${openaiKey}` } },
      response: { echoedHeaders: 'x-api-key: hunter2hunter2', url: `https://maps.example/heat?key=${googleKey}&z=3` },
      errorMessage: `401 Incorrect API key provided: ${openaiKey}`,
    });
    recordToolCall(store, {
      episodeId,
      round: 1,
      callIndex: 0,
      canonicalName: 'maps/heat',
      arguments: { api_key: 'plain-secret-value', city: 'Oslo' },
      resultText: `url=https://x/y?key=${googleKey}`,
    });
    finishEpisode(store, episodeId, {
      status: 'model_failure',
      errorMessage: `auth failed for ${gatewayToken}`,
      prediction: { id: 't1', final_reply: `my key ${openaiKey}` },
    });
    const [call] = modelCallsForEpisode(store, episodeId);
    expect(call?.request).toEqual({ headers: { authorization: '[REDACTED]', 'content-type': 'application/json' }, body: { note: 'key is [REDACTED]' } });
    expect(JSON.stringify(call?.response)).toContain('heat?key=[REDACTED]&z=3');
    expect(call?.errorMessage).toBe('401 Incorrect API key provided: [REDACTED]');
    expect(toolCallsForEpisode(store, episodeId)[0]?.arguments).toEqual({ api_key: '[REDACTED]', city: 'Oslo' });
    expect(getEpisode(store, episodeId)?.errorMessage).toBe('auth failed for [REDACTED]');
    expect(getRun(store, 'r2')?.switches).toEqual({ M3_GATEWAY: '[REDACTED]' });
    store.close();
    // Closing checkpoints the WAL into the main file; scan every byte SQLite left on disk.
    const bytes = [file, `${file}-wal`]
      .filter(existsSync)
      .map((name) => readFileSync(name).toString('latin1'))
      .join('');
    expect(bytes).toContain('[REDACTED]');
    for (const secret of [openaiKey, googleKey, gatewayToken, 'hunter2hunter2', 'plain-secret-value']) expect(bytes).not.toContain(secret);
  });
});
