// A server that labels PNG bytes `image/jpeg`: the marker in the result text names the type the
// bytes have (the type the model is sent), and says what the server claimed.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEpisode } from '../../src/agent/episode.js';
import type { AgentEvent } from '../../src/agent/events.js';
import type { AgentOptions } from '../../src/agent/options.js';
import { createReplayDriver } from '../../src/llm/replay/driver.js';
import { McpHost } from '../../src/mcp/host.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-marker-'));
let host: McpHost;

const options: AgentOptions = {
  maxStep: 2, maxConcurrent: 2, topTools: 0, maxNewTokens: 100, mergePrepareWork: true, skipEndStage: true, instructionRole: 'user',
  toolResultMaxChars: 0, imagePolicy: { recodeOverKb: 0, maxEdge: 0 }, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 },
  toolCallTimeoutMs: 10_000, imageRoots: [workDir],
};

beforeAll(async () => {
  host = await McpHost.start([fixtureSpec('image')], { requireAll: true, startupTimeoutMs: 90_000, logger: silent });
}, 120_000);
afterAll(async () => {
  await host?.close();
});

describe('the image marker', () => {
  it('names the type of the bytes sent, not the server label', async () => {
    const outcome = await host.callTool('image/mislabelled', {});
    expect(outcome.text).toMatch(/^\[image: image\/png \(labelled image\/jpeg\), \d+ bytes\]$/);

    const task = { id: 'M1', question: 'q', final_reply: 'done', steps: [{ step: 1, calls: [{ name: 'image/mislabelled', arguments: {} }] }] };
    const driver = await createReplayDriver('gt', { env: {}, groundTruth: new Map([['M1', task]]), timeoutMs: 0 });
    const events: AgentEvent[] = [];
    await runEpisode({ taskId: 'M1', question: 'q', userText: 'q', images: [], cwd: workDir, callContext: { taskId: 'M1', workspace: workDir } }, { driver, host, options, onEvent: (event) => events.push(event) });
    const end = events.find((event): event is Extract<AgentEvent, { type: 'tool_call_end' }> => event.type === 'tool_call_end');
    expect(end?.images.map((image) => image.mediaType)).toEqual(['image/png']);
    expect(end?.result).toContain('[image: image/png');
  });
});
