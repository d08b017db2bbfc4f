// A small run written through the store's own API, with known times: episode 1 of task T1 ends
// ok after two rounds (a model request that asks for two tools, one failing and one served by the
// fallback layer, then the answer); episode 2 of task T2 is a model failure (its only request
// failed after a retry). The exports read it back from the SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRun, finishEpisode, finishRun, openStore, recordModelCall, recordToolCalls, startEpisode } from '../../src/store/index.js';

export const storedRunId = 'export-run';
export const t0 = Date.parse('2026-11-30T10:00:00.000Z');
/** A value in T2's error message that becomes a secret only after the store was written (a key registered later). */
export const lateSecret = 'zq7-late-registered-value-41';
const at = (ms: number) => new Date(t0 + ms);

export interface StoredRun {
  file: string;
  dir: string;
  episodes: { ok: number; failed: number };
  cleanup: () => void;
}

export function writeStoredRun(): StoredRun {
  const dir = mkdtempSync(path.join(tmpdir(), 'm3-export-'));
  const file = path.join(dir, 'm3bench.sqlite');
  const store = openStore(file);
  createRun(store, { runId: storedRunId, modelSpec: 'openai:gpt-4o', modelLabel: 'gpt-4o', startedAt: at(0) });
  const ok = startEpisode(store, { runId: storedRunId, taskId: 'T1', model: 'gpt-4o', startedAt: at(0) });
  const usage = { inputTokens: 120, outputTokens: 30, cachedTokens: 0 };
  recordModelCall(store, {
    episodeId: ok,
    round: 1,
    purpose: 'work',
    request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'What is 2+3? Then read the code.' }] },
    response: { text: '', toolCallCount: 2 },
    usage,
    latencyMs: 900,
    attempts: [{ attempt: 1, startedAt: t0 + 100, latencyMs: 900, ok: true }],
    createdAt: at(1000),
  });
  recordToolCalls(store, [
    { episodeId: ok, round: 1, callIndex: 0, canonicalName: 'math/add', arguments: { a: 2, b: 3 }, resultText: '5', durationMs: 200, createdAt: at(1300) },
    {
      episodeId: ok,
      round: 1,
      callIndex: 1,
      canonicalName: 'weather/get_weather',
      arguments: { location: 'Boston' },
      resultText: 'Error: upstream_unavailable',
      isError: true,
      errorCode: 'upstream_unavailable',
      fallback: { tier: 'simulator', originalErrorCode: 'connection_refused' },
      durationMs: 400,
      createdAt: at(1500),
    },
  ]);
  recordModelCall(store, {
    episodeId: ok,
    round: 2,
    purpose: 'work',
    response: { text: 'The sum is 5.', toolCallCount: 0 },
    usage: { inputTokens: 200, outputTokens: 10, cachedTokens: 64 },
    latencyMs: 500,
    attempts: [{ attempt: 1, startedAt: t0 + 1600, latencyMs: 500, ok: true }],
    createdAt: at(2100),
  });
  finishEpisode(store, ok, {
    status: 'ok',
    rounds: 2,
    toolCallCount: 2,
    usage: { inputTokens: 320, outputTokens: 40, cachedTokens: 64 },
    finishedAt: at(2200),
    endStatus: 'answered',
    prediction: {
      id: 'T1',
      question: 'What is 2+3? Then read the code.',
      steps: [
        {
          step: 1,
          calls: [
            { name: 'math/add', arguments: { a: 2, b: 3 }, result: '5' },
            { name: 'weather/get_weather', arguments: { location: 'Boston' }, result: 'Error: upstream_unavailable' },
          ],
        },
      ],
      num_step: 1,
      final_reply: 'The sum is 5.',
    },
  });
  const failed = startEpisode(store, { runId: storedRunId, taskId: 'T2', model: 'gpt-4o', startedAt: at(5000) });
  recordModelCall(store, {
    episodeId: failed,
    round: 1,
    purpose: 'work',
    latencyMs: 300,
    attempts: [
      { attempt: 1, startedAt: t0 + 5100, latencyMs: 100, ok: false, errorClass: 'rate_limit', waitMs: 100 },
      { attempt: 2, startedAt: t0 + 5300, latencyMs: 100, ok: false, errorClass: 'invalid_request', message: 'bad tool schema' },
    ],
    errorClass: 'invalid_request',
    errorMessage: 'bad tool schema',
    createdAt: at(5400),
  });
  finishEpisode(store, failed, {
    status: 'model_failure',
    errorCode: 'invalid_request',
    errorMessage: `bad tool schema (request ${lateSecret})`,
    rounds: 1,
    finishedAt: at(5500),
  });
  finishRun(store, storedRunId, 'finished', at(6000));
  store.close();
  return { file, dir, episodes: { ok, failed }, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
