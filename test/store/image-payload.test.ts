// Migration 011 on a store file written before it, and the per-request image columns filled by a
// real episode: the agent loop, the Anthropic SDK against the wire-level mock, a real photo
// prepared by the transport policy, and the store recorder writing model_calls.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runEpisode } from '../../src/agent/episode.js';
import type { AgentOptions } from '../../src/agent/options.js';
import { imageDestinationFor } from '../../src/llm/image-destination.js';
import { createDriver } from '../../src/llm/registry.js';
import type { ToolHost } from '../../src/mcp/types.js';
import { prepareImage } from '../../src/media/prepare-image.js';
import { visionTokens } from '../../src/media/vision-tokens.js';
import { StoreRecorder } from '../../src/runner/store-recorder.js';
import { createRun, defaultMigrationsDir, modelCallsForEpisode, openStore, recordModelCall, startEpisode } from '../../src/store/index.js';
import { testKeys } from '../llm/helpers.js';
import { assertAssetsInCi, missingAssetsMessage, sharedAssetsDir } from '../support/shared-assets.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { tempDir } from './temp-store.js';

assertAssetsInCi();
const assets = sharedAssetsDir();
let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const noTools: ToolHost = { tools: [] } as unknown as ToolHost;

function options(): AgentOptions {
  return {
    agent: 'basic',
    maxStep: 1,
    maxConcurrent: 1,
    topTools: 0,
    maxNewTokens: 64,
    mergePrepareWork: true,
    skipEndStage: true,
    instructionRole: 'user',
    toolResultMaxChars: 2000,
    imagePolicy: { recodeOverKb: 512, maxEdge: 1568, transport: imageDestinationFor('anthropic:claude-sonnet-4-5') },
    retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 },
    toolCallTimeoutMs: 10_000,
    imageRoots: [],
  };
}

describe.skipIf(!assets)(`image payload per model request${assets ? '' : ` (${missingAssetsMessage})`}`, () => {
  it('011 applies to a store written before it; an episode fills image count, bytes and estimated tokens', async () => {
    const dir = tempDir();
    const older = path.join(dir, 'migrations-010');
    mkdirSync(older);
    for (const name of readdirSync(defaultMigrationsDir()).filter((file) => file < '011'))
      cpSync(path.join(defaultMigrationsDir(), name), path.join(older, name));
    const file = path.join(dir, 'runs.sqlite');
    const before = openStore(file, { migrationsDir: older });
    createRun(before, { runId: 'r', modelSpec: 'anthropic:claude-sonnet-4-5', modelLabel: 'claude' });
    const oldEpisode = startEpisode(before, { runId: 'r', taskId: 'old', model: 'anthropic:claude-sonnet-4-5' });
    before.close();
    rmSync(older, { recursive: true });

    const store = openStore(file);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(11);
    // A row written by the older code path (no images given) reads as zero images, tokens unknown.
    recordModelCall(store, { episodeId: oldEpisode, round: 1, purpose: 'work' });
    expect(modelCallsForEpisode(store, oldEpisode)[0]?.imagePayload).toEqual({ count: 0, bytes: 0, estimatedTokens: null });

    mock = await startMockLlm();
    mock.enqueue({ text: 'Two kites and a beach.' });
    const driver = await createDriver('anthropic:claude-sonnet-4-5', {
      env: { ANTHROPIC_API_KEY: testKeys.anthropic, ANTHROPIC_BASE_URL: mock.url },
      timeoutMs: 10_000,
    });
    const photo = path.join(assets ?? '', 'images', 'detection', 'beach_kites.jpg');
    const image = await prepareImage(readFileSync(photo), photo, options().imagePolicy);
    const recorder = new StoreRecorder(store, 'r', 'anthropic:claude-sonnet-4-5');
    const episodeId = recorder.startEpisode('t1');
    await runEpisode(
      {
        taskId: 't1',
        question: 'What is on the beach?',
        userText: 'What is on the beach?',
        images: [image],
        cwd: dir,
        callContext: { taskId: 't1', workspace: dir },
      },
      { driver, host: noTools, options: options(), onEvent: (event) => recorder.observe(episodeId, event) },
    );
    const [call] = modelCallsForEpisode(store, episodeId);
    const sentBytes = Buffer.byteLength(image.data, 'base64');
    expect(call?.imagePayload.count).toBe(1);
    expect(call?.imagePayload.bytes).toBe(sentBytes);
    expect(call?.imagePayload.estimatedTokens).toBe(visionTokens('anthropic', { width: image.facts?.width ?? 0, height: image.facts?.height ?? 0 }));
    // The photo was sent smaller than the original file and in a type Anthropic takes.
    expect(sentBytes).toBeLessThan(readFileSync(photo).length);
    expect(['image/webp', 'image/jpeg']).toContain(image.mediaType);
    store.close();
  });
});
