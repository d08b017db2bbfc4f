// A model that calls a tool every round, against the mock LLM, for 30 rounds: the store no longer
// repeats the whole history in every stored request (each is stored as what is new against the
// previous one, migration 015), and the requests rebuilt on read equal what the mock received.
import path from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBaseFunctionName } from '../../src/mcp/function-names.js';
import { episodesForRun, listRuns, modelCallsForEpisode, openStore } from '../../src/store/index.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { runM3, taskFolder } from './run-child.js';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ fallback: { toolCalls: [{ name: toBaseFunctionName('math/add'), arguments: { a: 2, b: 3 } }] } });
});
afterAll(async () => {
  await mock?.close();
});

describe('a looping model and the stored requests', () => {
  it('stores each round without the history, and rebuilds every request exactly as sent', async () => {
    const folder = taskFolder('looping', [{ id: 'loop1', image: 'dot.png' }]);
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#444' } })
      .png()
      .toFile(path.join(folder.dir, 'dot.png'));
    const env = {
      OPENAI_API_KEY: 'k3y-looping-0123',
      OPENAI_BASE_URL: mock.openAiBaseUrl,
      M3_LLM_MAX_RETRIES: '0',
      M3_WORKSPACE_MODE: 'isolated',
      M3_KEEP_WORKSPACE: '0',
    };
    const run = await runM3(['run', '--model', 'openai:mock-model', ...folder.args, '--max-step', '30'], env);
    expect(run.code, run.stderr).toBe(0);
    const sent = mock.requests.filter((request) => request.endpoint === 'generate');
    expect(sent.length).toBeGreaterThanOrEqual(30);

    const storeFile = path.join(folder.results, 'm3bench.sqlite');
    const store = openStore(storeFile, { readonly: true });
    let rebuilt: unknown[];
    try {
      const runId = listRuns(store, {})[0]?.runId ?? '';
      const [episode] = episodesForRun(store, runId, {});
      rebuilt = modelCallsForEpisode(store, episode?.id ?? -1).map((call) => call.request);
    } finally {
      store.close();
    }
    expect(rebuilt).toHaveLength(sent.length);
    expect(rebuilt).toEqual(sent.map((request) => request.body));

    // What the file holds: far less than the requests themselves (which repeat the history).
    const db = new Database(storeFile, { readonly: true });
    try {
      const stored = db.prepare('SELECT SUM(LENGTH(request)) AS bytes, SUM(request_delta) AS deltas FROM model_calls').get() as {
        bytes: number;
        deltas: number;
      };
      const whole = rebuilt.reduce<number>((sum, request) => sum + JSON.stringify(request).length, 0);
      // Every request after the first of its chain (the loop's rounds; the closing request is a chain of its own).
      expect(stored.deltas).toBeGreaterThanOrEqual(sent.length - 2);
      expect(stored.bytes * 5).toBeLessThan(whole);
    } finally {
      db.close();
    }
  }, 180_000);
});
