// A result with no text block whose structured content repeats an image (as file servers'
// `read_media_file` does): the result text the model reads and the prediction records carries
// the image only as a short marker, never its base64, while the image itself still reaches the
// model as an image.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEpisode } from '../../src/agent/episode.js';
import type { AgentOptions } from '../../src/agent/options.js';
import { toPrediction } from '../../src/agent/to-prediction.js';
import type { ImagePart } from '../../src/core/content.js';
import type { Message } from '../../src/core/messages.js';
import { createReplayDriver } from '../../src/llm/replay/driver.js';
import type { GenerateRequest, ModelDriver } from '../../src/llm/types.js';
import { McpHost } from '../../src/mcp/host.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-structured-'));
const longBase64 = /[A-Za-z0-9+/]{100,}/;
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

describe('binary payloads in structured content', () => {
  it('appear in the result text only as markers', async () => {
    const outcome = await host.callTool('image/read_media', {});
    expect(outcome.text).not.toMatch(longBase64);
    expect(outcome.text).toMatch(/^\[image: image\/png, \d+ bytes\]\n\{"content":\["\[image: image\/png, \d+ bytes\]"\],"name":"swatch.png"\}$/);
  });

  it('reach the model as an image, with a marker in the text it reads and in the prediction', async () => {
    const task = { id: 'S1', question: 'q', final_reply: 'done', steps: [{ step: 1, calls: [{ name: 'image/read_media', arguments: {} }] }] };
    const replay = await createReplayDriver('gt', { env: {}, groundTruth: new Map([['S1', task]]), timeoutMs: 0 });
    const requests: GenerateRequest[] = [];
    const driver: ModelDriver = { ...replay, generate: (request, opts) => (requests.push(structuredClone(request)), replay.generate(request, opts)) };
    const trace = await runEpisode({ taskId: 'S1', question: 'q', userText: 'q', images: [], cwd: workDir, callContext: { taskId: 'S1', workspace: workDir } }, { driver, host, options });
    const result = toPrediction({ id: 'S1' }, 'q', trace).steps[0]?.calls[0]?.result;
    expect(result).not.toMatch(longBase64);
    const tool = requests[1]?.messages.find((message): message is Extract<Message, { role: 'tool' }> => message.role === 'tool');
    const parts = tool?.results[0]?.content ?? [];
    const text = parts.find((part) => part.type === 'text');
    expect(text?.type === 'text' ? text.text : '').not.toMatch(longBase64);
    expect(parts.filter((part): part is ImagePart => part.type === 'image').map((part) => [part.mediaType, part.facts?.width])).toEqual([['image/png', 48]]);
  });
});
