// The session model (bounded turns, replayable event buffer, lock, eviction) and the session
// log's file name and payload scrubbing, without a server.
import { describe, expect, it } from 'vitest';
import type { EpisodeTrace } from '../../src/agent/episode.js';
import { logTimestamp, toSessionLog, withoutPayloads } from '../../src/demo/session-log.js';
import { SessionStore, type Turn } from '../../src/demo/sessions.js';

const turn = (n: number, status: Turn['status'] = 'ok'): Turn => ({
  episodeId: `e${n}`,
  question: `q${n}`,
  userText: `q${n}`,
  imageIds: [],
  model: 'm',
  reply: `r${n}`,
  status,
});

describe('demo sessions', () => {
  it('keeps the last N turns and passes only answered ones to the model', () => {
    const session = new SessionStore({ maxSessions: 5, maxTurns: 3, maxBufferedEvents: 10 }).create('owner');
    for (let n = 1; n <= 5; n += 1) session.addTurn(turn(n, n === 4 ? 'cancelled' : 'ok'));
    expect(session.turns.map((entry) => entry.episodeId)).toEqual(['e3', 'e4', 'e5']);
    expect(session.priorMessages()).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'q3' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'r3' }], toolCalls: [] },
      { role: 'user', content: [{ type: 'text', text: 'q5' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'r5' }], toolCalls: [] },
    ]);
  });

  it('runs one episode at a time and replays buffered events after a given id', () => {
    const session = new SessionStore({ maxSessions: 5, maxTurns: 3, maxBufferedEvents: 3 }).create('owner');
    expect(session.tryStart('a')).toBeInstanceOf(AbortController);
    expect(session.tryStart('b')).toBeUndefined();
    session.finish('b');
    expect(session.running?.episodeId).toBe('a');
    session.finish('a');
    expect(session.tryStart('b')).toBeDefined();
    for (let round = 1; round <= 5; round += 1) session.publish({ type: 'round_start', episodeId: 'b', round });
    const seen: number[] = [];
    const stop = session.subscribe((id) => seen.push(id), 3);
    expect(seen).toEqual([4, 5]);
    session.publish({ type: 'round_start', episodeId: 'b', round: 6 });
    stop();
    session.publish({ type: 'round_start', episodeId: 'b', round: 7 });
    expect(seen).toEqual([4, 5, 6]);
    const replay: number[] = [];
    session.subscribe((id) => replay.push(id), 0)();
    expect(replay).toEqual([5, 6, 7]);
  });

  it('evicts the idle sessions first when full, never a running one', () => {
    const store = new SessionStore({ maxSessions: 2, maxTurns: 3, maxBufferedEvents: 3 });
    const busy = store.create('owner');
    busy.tryStart('x');
    busy.lastActive = 0;
    const idle = store.create('owner');
    const third = store.create('owner');
    expect(store.get(busy.id, 'owner')).toBe(busy);
    expect(store.get(idle.id, 'owner')).toBeUndefined();
    expect(store.get(third.id, 'owner')).toBe(third);
    expect(store.get(third.id, 'someone else')).toBeUndefined();
    expect(store.get(third.id, undefined)).toBeUndefined();
    expect(store.get('../../etc', 'owner')).toBeUndefined();
  });
});

describe('demo session log', () => {
  it('names files YYYYmmdd-HHMMSS-micro in local time', () => {
    expect(logTimestamp(new Date(2025, 0, 2, 3, 4, 5, 678), 901)).toBe('20250102-030405-678901');
  });

  it('keeps no data URLs or huge strings, and records paths and facts', () => {
    const dataUrl = `data:image/png;base64,${'A'.repeat(5000)}`;
    expect(withoutPayloads({ a: [dataUrl, 'data:x'], b: 'x'.repeat(25_000) })).toEqual({
      a: ['[data URL, 5022 characters]', 'data:x'],
      b: `${'x'.repeat(20_000)}[... 5000 more characters]`,
    });
    const log = toSessionLog({
      sessionId: 's',
      episodeId: 'e',
      model: 'm',
      servers: ['math'],
      question: 'q',
      userText: 'q',
      toolImages: [],
      trace: traceWith(dataUrl),
      images: [
        {
          id: 'abc.png',
          file: '/x/abc.png',
          displayPath: './media/uploads/s/abc.png',
          url: '/api/sessions/s/images/abc.png',
          mediaType: 'image/png',
          width: 2,
          height: 3,
          bytes: 9,
          kind: 'upload',
          source: 'upload',
        },
      ],
      maxStep: 2,
      maxConcurrent: 3,
      status: 'cancelled',
      error: { code: 'cancelled', message: 'cancelled by the user' },
      startedAt: new Date(0),
      finishedAt: new Date(1000),
    });
    expect(log).toMatchObject({
      session_id: 's',
      request_text: 'q',
      max_step: 2,
      max_concurrent: 3,
      final_reply: 'done',
      status: 'cancelled',
      steps: [{ step: 1, calls: [{ name: 'imageops/crop', arguments: { image: '[data URL, 5022 characters]', x: 1 }, result: 'ok' }] }],
      dialogue: [{ work: { tool_calls: [{ name: 'imageops/crop', arguments: { image: '[data URL, 5022 characters]', x: 1 } }] }, end: 'yes' }],
      images: [{ image_id: 'abc.png', file_path: './media/uploads/s/abc.png', url: '/api/sessions/s/images/abc.png', width: 2, height: 3 }],
    });
    expect(JSON.stringify(log)).not.toContain('AAAA');
  });
});

function traceWith(image: string): EpisodeTrace {
  const args = { image, x: 1 };
  return {
    rounds: [
      {
        round: 1,
        prepare: '',
        unparseable: false,
        end: 'yes',
        calls: [
          {
            call: { id: 'c1', name: 'imageops__crop', arguments: args },
            canonicalName: 'imageops/crop',
            arguments: args,
            resultText: 'ok',
            isError: false,
            durationMs: 3,
            images: [],
            undeliveredImages: [],
            executed: true,
          },
        ],
      },
    ],
    finalReply: 'done',
    usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0 },
    modelCalls: 2,
    warnings: [],
  };
}
