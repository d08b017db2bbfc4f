// The agent loop end to end: replay driver + the fixture MCP servers (in process, through the
// host's connectServer option).
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEpisode, type EpisodeInput } from '../../src/agent/episode.js';
import type { AgentEvent } from '../../src/agent/events.js';
import type { AgentOptions } from '../../src/agent/options.js';
import { toPrediction } from '../../src/agent/to-prediction.js';
import type { ImagePart } from '../../src/core/content.js';
import type { Message } from '../../src/core/messages.js';
import { createReplayDriver } from '../../src/llm/replay/driver.js';
import type { GenerateRequest, ModelDriver } from '../../src/llm/types.js';
import { McpHost } from '../../src/mcp/index.js';
import type { GtTask } from '../../src/tasks/schemas.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { inProcessHost } from '../support/in-process-host.js';

const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-episode-'));
let host: McpHost;

beforeAll(async () => {
  host = await McpHost.start([fixtureSpec('echo'), fixtureSpec('slow'), fixtureSpec('image')], {
    requireAll: true,
    callTimeoutMs: 10_000,
    connectServer: inProcessHost().connectServer,
  });
});
afterAll(async () => {
  await host?.close();
});

function options(overrides: Partial<AgentOptions> = {}): AgentOptions {
  return {
    maxStep: 6,
    maxConcurrent: 10,
    topTools: 0,
    maxNewTokens: 1000,
    mergePrepareWork: true,
    skipEndStage: true,
    instructionRole: 'user',
    toolResultMaxChars: 2000,
    imagePolicy: { recodeOverKb: 512, maxEdge: 1568 },
    retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 },
    toolCallTimeoutMs: 10_000,
    imageRoots: [workDir],
    ...overrides,
  };
}

/** Wraps a driver and keeps every request it was sent, as the wire would see it. */
function recording(driver: ModelDriver): ModelDriver & { requests: GenerateRequest[] } {
  const requests: GenerateRequest[] = [];
  return { ...driver, requests, generate: (request, opts) => (requests.push(structuredClone(request)), driver.generate(request, opts)) };
}

async function replay(task: GtTask, agentOptions = options(), events: AgentEvent[] = []) {
  const driver = recording(await createReplayDriver('gt', { env: {}, groundTruth: new Map([[task.id, task]]), timeoutMs: 0 }));
  const input: EpisodeInput = {
    taskId: task.id,
    question: task.question,
    userText: task.question,
    images: [],
    cwd: workDir,
    callContext: { taskId: task.id, workspace: workDir },
  };
  const trace = await runEpisode(input, { driver, host, options: agentOptions, onEvent: (event) => events.push(event) });
  return { trace, driver, prediction: toPrediction({ id: task.id }, task.question, trace), events };
}

const gtTask = (id: string, steps: Array<Array<{ name: string; arguments: unknown }>>, final = 'done'): GtTask => ({
  id,
  question: `question ${id}`,
  final_reply: final,
  steps: steps.map((calls, index) => ({ step: index + 1, calls })),
});

describe('agent loop with the replay model', () => {
  it('reproduces the ground-truth calls exactly: names, arguments, step structure, final reply', async () => {
    const task = gtTask(
      'exact',
      [
        [
          { name: 'echo/echo', arguments: { text: 'a' } },
          { name: 'slow/ping', arguments: {} },
        ],
        [{ name: 'echo/echo', arguments: { text: 'b' } }],
      ],
      'all done',
    );
    const { prediction, trace } = await replay(task);
    expect(prediction.steps.map((step) => step.calls.map((call) => [call.name, call.arguments]))).toEqual([
      [
        ['echo/echo', { text: 'a' }],
        ['slow/ping', {}],
      ],
      [['echo/echo', { text: 'b' }]],
    ]);
    expect(prediction.steps[0]?.calls.map((call) => call.result)).toEqual(['a', 'pong']);
    expect(prediction).toMatchObject({ num_step: 2, max_num_concurrent: 2, final_reply: 'all done' });
    expect(prediction.dialogue.map((round) => round.end)).toEqual(['no', 'yes']);
    expect(trace.modelCalls).toBe(3);
  });

  it('runs the calls of one round in parallel', async () => {
    // Each call answers "met 5" only while all five are in flight together; in series the first
    // would wait alone until its waitMs (a hang guard, not a speed bound) and say so.
    const task = gtTask('parallel', [Array.from({ length: 5 }, () => ({ name: 'slow/rendezvous', arguments: { count: 5, waitMs: 8000 } }))]);
    const { prediction } = await replay(task);
    expect(prediction.steps[0]?.calls).toHaveLength(5);
    expect(prediction.steps[0]?.calls.map((call) => call.result)).toEqual(Array.from({ length: 5 }, () => 'met 5'));
  });

  it('shows tool-made images to the model typed by their bytes and resized, leaving the file alone', async () => {
    const task = gtTask('image', [
      [{ name: 'image/write_image', arguments: { dir: workDir, name: 'wide', width: 3000 } }],
      [{ name: 'image/make_image', arguments: { width: 64, height: 32 } }],
    ]);
    const { driver } = await replay(task, options({ imagePolicy: { recodeOverKb: 0, maxEdge: 1000 } }));
    const file = path.join(workDir, 'wide.txt');
    const before = createHash('sha256').update(readFileSync(file)).digest('hex');
    const toolMessages = (request: GenerateRequest) =>
      request.messages.filter((message): message is Extract<Message, { role: 'tool' }> => message.role === 'tool');
    const afterFirst = toolMessages(driver.requests[1]!);
    const written = afterFirst[0]?.results[0]?.content.find((part): part is ImagePart => part.type === 'image');
    expect(written?.mediaType).toBe('image/png');
    expect(written?.facts).toMatchObject({ width: 1000, height: 1000, originalMediaType: 'image/png' });
    const inline = toolMessages(driver.requests[2]!)[1]?.results[0]?.content.find((part): part is ImagePart => part.type === 'image');
    expect(inline?.facts).toMatchObject({ width: 64, height: 32 });
    expect((await sharp(Buffer.from(inline!.data, 'base64')).metadata()).format).toBe('png');
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(before);
    const metadata = await sharp(file).metadata();
    expect(metadata.width).toBe(3000);
  });

  it('truncates tool results in the model-facing history only', async () => {
    const long = 'x'.repeat(5000);
    const task = gtTask('truncate', [[{ name: 'echo/echo', arguments: { text: long } }]]);
    const { prediction, driver } = await replay(task, options({ toolResultMaxChars: 100 }));
    expect(prediction.steps[0]?.calls[0]?.result).toBe(long);
    const seen = driver.requests[1]!.messages.find((message) => message.role === 'tool');
    const text = seen && seen.role === 'tool' ? seen.results[0]?.content[0] : undefined;
    expect(text?.type === 'text' && text.text.startsWith('x'.repeat(100))).toBe(true);
    expect(text?.type === 'text' && text.text).toContain('[... truncated 4900 of 5000 characters]');
  });

  it('turns unknown tools and schema-violating arguments into recorded error results', async () => {
    const task = gtTask('errors', [
      [
        { name: 'nowhere/tool', arguments: {} },
        { name: 'echo/echo', arguments: { text: 42 } },
        { name: 'echo/echo', arguments: 'not json' },
        { name: 'echo/fail', arguments: { message: 'boom' } },
      ],
    ]);
    const events: AgentEvent[] = [];
    const { prediction } = await replay(task, options(), events);
    const results = prediction.steps[0]?.calls.map((call) => call.result) ?? [];
    expect(results[0]).toBe('[Tool error] Unknown tool: nowhere/tool');
    expect(results[1]).toMatch(/^\[Tool error\] Invalid arguments for echo\/echo: arguments\/text must be string/);
    expect(results[2]).toContain('arguments must be a JSON object');
    expect(results[3]).toMatch(/^\[Tool error\] .*boom/);
    const ends = events.filter((event): event is Extract<AgentEvent, { type: 'tool_call_end' }> => event.type === 'tool_call_end');
    expect(ends.map((event) => event.errorCode)).toEqual(['unknown_tool', 'invalid_arguments', 'invalid_arguments', undefined]);
    expect(ends[3]?.isError).toBe(true);
  });

  it('answers calls beyond max_concurrent with an error instead of running them', async () => {
    const task = gtTask('limit', [Array.from({ length: 4 }, (_, i) => ({ name: 'echo/echo', arguments: { text: String(i) } }))]);
    const { prediction, driver } = await replay(task, options({ maxConcurrent: 2 }));
    expect(prediction.steps[0]?.calls.map((call) => call.result)).toEqual(['0', '1']);
    const tool = driver.requests[1]!.messages.find((message) => message.role === 'tool');
    expect(tool && tool.role === 'tool' ? tool.results.length : 0).toBe(4);
  });

  it('supports the unmerged prepare/work stages and the end-stage question', async () => {
    const task = gtTask('stages', [[{ name: 'echo/echo', arguments: { text: 'p' } }], [{ name: 'slow/ping', arguments: {} }]]);
    const { prediction, driver } = await replay(task, options({ mergePrepareWork: false, skipEndStage: false, instructionRole: 'system' }));
    expect(driver.requests.map((request) => request.context?.purpose)).toEqual(['prepare', 'work', 'end', 'prepare', 'work', 'end', 'final']);
    expect(prediction.dialogue.map((round) => [round.prepare, round.end])).toEqual([
      ['echo/echo: planned', 'no'],
      ['slow/ping: planned', 'yes'],
    ]);
    expect(driver.requests[1]!.tools.map((tool) => tool.canonicalName)).toEqual(['echo/echo']);
    expect(driver.requests[1]!.system).toContain('Round 1 of 6');
    expect(prediction.steps).toHaveLength(2);
  });

  it('stops after max_step rounds and asks for a final answer without tools', async () => {
    const task = gtTask(
      'cap',
      [[{ name: 'slow/ping', arguments: {} }], [{ name: 'slow/ping', arguments: {} }], [{ name: 'slow/ping', arguments: {} }]],
      'capped',
    );
    const { prediction, driver } = await replay(task, options({ maxStep: 2 }));
    expect(prediction.steps).toHaveLength(2);
    expect(driver.requests.at(-1)?.toolChoice).toBe('none');
    expect(prediction.final_reply).toBe('capped');
    expect(prediction.dialogue.map((round) => round.end)).toEqual(['no', 'no']);
  });
});
