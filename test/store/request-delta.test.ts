// Migration 014 on a real store: requests of interleaved chains (two agents of one workflow, a
// planning request, a request-less failed call, a replaced last message, a changed tool list) are
// stored as deltas and read back equal to what was recorded, under group commit too.
import { describe, expect, it } from 'vitest';
import { createRun, modelCallsForEpisode, openStore, recordModelCall, startEpisode } from '../../src/store/index.js';
import { fromRequestDelta, toRequestDelta } from '../../src/store/request-delta.js';
import { tempStoreFile } from './temp-store.js';

const tools = Array.from({ length: 20 }, (_, index) => ({ type: 'function', function: { name: `tool_${index}`, description: 'd'.repeat(200) } }));

function requestsOf(agent: string, rounds: number) {
  const history: unknown[] = [{ role: 'system', content: `you are ${agent}` }];
  return Array.from({ length: rounds }, (_, round) => {
    history.push({ role: 'assistant', content: `${agent} round ${round}` }, { role: 'tool', content: 'r'.repeat(50) });
    const request = {
      model: 'gpt-4o',
      messages: [...history, { role: 'user', content: `round ${round + 1} of ${rounds}` }],
      tools: round === 3 ? tools.slice(1) : tools,
    };
    return { agent, round: round + 1, request };
  });
}

describe('requests stored as deltas (migration 015)', () => {
  it.each([false, true])('read back exactly as recorded (group commit %s)', async (groupCommit) => {
    const store = openStore(tempStoreFile(), { groupCommit });
    createRun(store, { runId: 'r', modelSpec: 'openai:gpt-4o', modelLabel: 'gpt-4o' });
    const episodeId = startEpisode(store, { runId: 'r', taskId: 't1', model: 'openai:gpt-4o' });
    const a = requestsOf('alpha', 6);
    const b = requestsOf('beta', 6);
    const recorded: Array<{ agent: string; round: number; request: unknown }> = [];
    recordModelCall(store, {
      episodeId,
      round: 0,
      purpose: 'plan',
      agent: 'flow',
      request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'plan' }] },
    });
    recorded.push({ agent: 'flow', round: 0, request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'plan' }] } });
    for (let index = 0; index < 6; index += 1) {
      for (const call of [a[index], b[index]]) {
        if (!call) continue;
        recordModelCall(store, { episodeId, round: call.round, purpose: 'work', agent: call.agent, request: call.request });
        recorded.push(call);
      }
      if (index === 2) {
        recordModelCall(store, { episodeId, round: 3, purpose: 'work', agent: 'alpha', errorClass: 'transient', errorMessage: 'dropped' });
        recorded.push({ agent: 'alpha', round: 3, request: null });
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
    const calls = modelCallsForEpisode(store, episodeId);
    const byId = [...calls].sort((x, y) => x.id - y.id);
    expect(byId.map((call) => ({ agent: call.agent, round: call.round, request: call.request }))).toEqual(recorded);
    expect(calls.every((call) => call.requestDelta === false)).toBe(true);
    store.close();
  });

  it('falls back to the whole request when a delta would not be smaller, and refuses a delta that does not fit its base', () => {
    expect(toRequestDelta({ a: 1 }, { b: 2 })).toBeUndefined();
    expect(toRequestDelta(null, { b: 2 })).toBeUndefined();
    const delta = toRequestDelta({ messages: [1, 2, 3], tools: 'x'.repeat(100) }, { messages: [1, 2, 4, 5], tools: 'x'.repeat(100) });
    expect(delta).toMatchObject({ same: ['tools'], extend: { messages: { keep: 2, add: [4, 5] } } });
    if (!delta) throw new Error('expected a delta');
    expect(fromRequestDelta({ messages: [1, 2, 3], tools: 'x'.repeat(100) }, delta)).toEqual({ messages: [1, 2, 4, 5], tools: 'x'.repeat(100) });
    expect(fromRequestDelta({ messages: [1] }, delta)).toBeUndefined();
  });
});
