// A hostile task file: `image` entries that point outside the image folders (absolute or with
// `..`), or a text file named like an image. Each must end the task as an infrastructure
// failure before any byte is copied into media/, and the model must never be asked. The host's
// one server (the echo fixture) answers in this process (test/support/in-process-host.ts): the
// task's image paths are checked before any server is involved, so no process is needed.
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentOptions } from '../../src/agent/options.js';
import type { GenerateResponse, ModelDriver } from '../../src/llm/types.js';
import { McpHost } from '../../src/mcp/index.js';
import { runTask, type TaskEnvironment } from '../../src/runner/run-task.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { inProcessHost } from '../support/in-process-host.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-images-'));
const datasetDir = path.join(root, 'datasets');
const mediaDir = path.join(root, 'media');
let host: McpHost;

const options: AgentOptions = {
  maxStep: 2,
  maxConcurrent: 2,
  topTools: 0,
  maxNewTokens: 100,
  mergePrepareWork: true,
  skipEndStage: true,
  instructionRole: 'user',
  toolResultMaxChars: 0,
  imagePolicy: { recodeOverKb: 0, maxEdge: 0 },
  retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 },
  toolCallTimeoutMs: 5000,
  imageRoots: [mediaDir],
};

/** Answers at once and counts how often it was asked (and with how many images). */
function countingDriver(): ModelDriver & { imagesSeen: number[] } {
  const imagesSeen: number[] = [];
  const answer: GenerateResponse = {
    text: 'done',
    toolCalls: [],
    stopReason: 'end',
    usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0 },
    latencyMs: 1,
    warnings: [],
  };
  return {
    id: 'count:x',
    provider: 'count',
    model: 'x',
    acceptsImages: true,
    imagesSeen,
    async generate(request) {
      imagesSeen.push(request.messages.flatMap((message) => (message.role === 'user' ? message.content : [])).filter((part) => part.type === 'image').length);
      return answer;
    },
    classifyError: (error) => ({ errorClass: 'fatal', message: String(error) }),
  };
}

function environment(driver: ModelDriver): TaskEnvironment {
  return { driver, host, options, root, runId: 'r', workspaceMode: 'dedup', keepWorkspace: true, imageSearchDirs: [datasetDir], taskTimeoutMs: 0 };
}

const mediaFiles = (): string[] => readdirSync(mediaDir, { recursive: true }).map(String);

beforeAll(async () => {
  mkdirSync(path.join(datasetDir, 'images'), { recursive: true });
  mkdirSync(mediaDir, { recursive: true });
  writeFileSync(path.join(datasetDir, 'images', 'notes.png'), 'OPENAI_API_KEY=not-an-image\n');
  await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
    .png()
    .toFile(path.join(datasetDir, 'images', 'ok.png'));
  writeFileSync(path.join(root, 'secret.png'), 'outside the dataset folder');
  host = await McpHost.start([fixtureSpec('echo')], { requireAll: true, connectServer: inProcessHost().connectServer });
});
afterAll(async () => {
  await host?.close();
});

describe('task image paths are confined to the image folders', () => {
  it.each([
    ['an absolute path outside', '/etc/passwd'],
    ['a relative path climbing out', '../../../../../../../../etc/passwd'],
    ['a sibling of the image folder', '../secret.png'],
  ])('refuses %s before copying anything', async (_label, image) => {
    const driver = countingDriver();
    const outcome = await runTask({ id: 'hostile', image, type: undefined, tier: undefined, question: 'what is this?' }, environment(driver));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.verdict).toMatchObject({ status: 'infra_failure', kind: 'infra', code: 'bad_task_input' });
    expect(outcome.verdict.message).toContain('outside the image folders');
    expect(mediaFiles()).toEqual([]);
    expect(driver.imagesSeen).toEqual([]);
  });

  it('type-checks the bytes before copying: a text file named .png is refused and not left in media/', async () => {
    const driver = countingDriver();
    const outcome = await runTask({ id: 'text-as-png', image: 'images/notes.png', type: undefined, tier: undefined, question: 'q' }, environment(driver));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.verdict).toMatchObject({ status: 'infra_failure', code: 'bad_task_input' });
    expect(outcome.verdict.message).toContain('not an image');
    expect(mediaFiles()).toEqual([]);
    expect(driver.imagesSeen).toEqual([]);
  });

  it('still runs a task whose image lies inside the folder', async () => {
    const driver = countingDriver();
    const outcome = await runTask({ id: 'fine', image: 'images/ok.png', type: undefined, tier: undefined, question: 'q' }, environment(driver));
    expect(outcome.ok).toBe(true);
    expect(mediaFiles()).toEqual(['ok.png']);
    expect(driver.imagesSeen).toEqual([1]);
  });
});
