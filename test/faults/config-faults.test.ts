// Configuration and input faults are not the model's fault. A model the endpoint does not have
// and a rejected key stop `m3 run` before any MCP server starts; a model that disappears mid-run
// (404) and a task image that does not decode (truncated, or a corrupt body behind a valid
// header) end their tasks as infrastructure failures, never as model failures.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { runM3, taskFolder } from './run-child.js';

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const serversStarted = (results: string) => existsSync(path.join(results, 'logs')) || existsSync(path.join(results, 'tools_catalog.json'));
const quiet = { M3_LLM_MAX_RETRIES: '0', M3_MAX_TASK_REQUEUE: '1', M3_WORKSPACE_MODE: 'isolated', M3_KEEP_WORKSPACE: '0' };

async function pngFile(file: string): Promise<Buffer> {
  const square = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#f00' } })
    .png()
    .toBuffer();
  await sharp({ create: { width: 160, height: 120, channels: 3, background: '#3a7' } })
    .composite([{ input: square, left: 10, top: 10 }])
    .png()
    .toFile(file);
  return readFileSync(file);
}

function manifestOf(results: string, label: string) {
  return JSON.parse(readFileSync(path.join(results, `${label}_test_mcp_fuzzy.manifest.json`), 'utf8')) as {
    counts: { modelFailures: number; infraFailures: number };
    failures: Array<{ taskId: string; status: string; code: string; message: string }>;
  };
}

describe('a bad configuration fails before any server starts', () => {
  const vendors = [
    { model: 'openai:ghost-model', env: (m: MockLlm, key: string) => ({ OPENAI_API_KEY: key, OPENAI_BASE_URL: m.openAiBaseUrl }) },
    { model: 'anthropic:claude-ghost', env: (m: MockLlm, key: string) => ({ ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: m.url }) },
    { model: 'gemini:gemini-ghost', env: (m: MockLlm, key: string) => ({ GEMINI_API_KEY: key, GEMINI_BASE_URL: m.url }) },
  ];
  for (const vendor of vendors) {
    it(`${vendor.model}: a model the endpoint does not have`, async () => {
      mock = await startMockLlm({ models: ['some-real-model'] });
      const folder = taskFolder('ghost-model', [{ id: 'g1', image: 'none.png' }]);
      const run = await runM3(['run', '--model', vendor.model, ...folder.args], { ...vendor.env(mock, 'k3y-valid-0123456789'), ...quiet });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/request rejected \(.*(does not exist|not found|model: ).*\); check the model name/);
      expect(run.stderr).toContain(vendor.model.split(':')[1]);
      expect(mock.generations()).toEqual([]);
      expect(serversStarted(folder.results)).toBe(false);
    }, 60_000);

    it(`${vendor.model.split(':')[0]}: a key the provider rejects`, async () => {
      mock = await startMockLlm({ keys: ['k3y-the-right-one-0123'] });
      const folder = taskFolder('bad-key', [{ id: 'b1', image: 'none.png' }]);
      const run = await runM3(['run', '--model', vendor.model, ...folder.args], { ...vendor.env(mock, 'k3y-the-wrong-one-4567'), ...quiet });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/authentication failed/);
      expect(run.stderr).not.toContain('k3y-the-wrong-one-4567');
      expect(mock.generations()).toEqual([]);
      expect(serversStarted(folder.results)).toBe(false);
    }, 60_000);
  }
});

describe('faults inside a run are infrastructure failures', () => {
  it('a 404 "model not found" during the batch', async () => {
    mock = await startMockLlm();
    const folder = taskFolder('gone-model', [{ id: 'm1', image: 'chart.png' }]);
    await pngFile(path.join(folder.dir, 'chart.png'));
    const gone = {
      kind: 'status' as const,
      status: 404,
      message: 'The model `mock-model` does not exist or you do not have access to it.',
      code: 'model_not_found',
    };
    mock.enqueue({ fault: gone }, { fault: gone });
    const run = await runM3(['run', '--model', 'openai:mock-model', ...folder.args], {
      OPENAI_API_KEY: 'k3y-valid-0123456789',
      OPENAI_BASE_URL: mock.openAiBaseUrl,
      ...quiet,
    });
    const manifest = manifestOf(folder.results, 'mock-model');
    expect(manifest.failures, run.stderr).toEqual([expect.objectContaining({ taskId: 'm1', status: 'infra_failure', code: 'model_not_found' })]);
    expect(manifest.counts.modelFailures).toBe(0);
    // Not requeued: the same model is missing on every attempt.
    expect(mock.generations()).toHaveLength(1);
  }, 120_000);

  it('a truncated PNG and a PNG with a corrupt body', async () => {
    mock = await startMockLlm({ fallback: { text: 'an answer about an image that was never decodable' } });
    const folder = taskFolder('bad-image', [
      { id: 'truncated', image: 'truncated.png' },
      { id: 'corrupt', image: 'corrupt.png' },
    ]);
    const good = await pngFile(path.join(folder.dir, 'good.png'));
    writeFileSync(path.join(folder.dir, 'truncated.png'), good.subarray(0, Math.floor(good.length * 0.6)));
    const corrupt = Buffer.from(good);
    const idat = corrupt.indexOf(Buffer.from('IDAT'));
    for (let index = idat + 14; index < idat + corrupt.readUInt32BE(idat - 4); index += 1) corrupt[index]! ^= 0xa5;
    writeFileSync(path.join(folder.dir, 'corrupt.png'), corrupt);
    const run = await runM3(['run', '--model', 'openai:mock-model', ...folder.args], {
      OPENAI_API_KEY: 'k3y-valid-0123456789',
      OPENAI_BASE_URL: mock.openAiBaseUrl,
      ...quiet,
    });
    const manifest = manifestOf(folder.results, 'mock-model');
    expect(
      manifest.failures.map((failure) => [failure.taskId, failure.status, failure.code]),
      run.stderr,
    ).toEqual([
      ['truncated', 'infra_failure', 'bad_task_input'],
      ['corrupt', 'infra_failure', 'bad_task_input'],
    ]);
    expect(manifest.failures.map((failure) => failure.message).join('\n')).toMatch(/corrupt or unreadable image\/png/);
    expect(mock.generations()).toEqual([]);
  }, 120_000);
});
