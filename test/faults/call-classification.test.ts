// Call classification of two results that used to be charged as invalid arguments: our own
// servers' "file not found" error (`cannot read image "...": ENOENT`, here from the real
// imagesorcery-mcp server) is resource_not_found, and a successful result whose text happens to
// start with "Error:" is a success when the record says the call succeeded.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPrediction } from '../../src/agent/to-prediction.js';
import { loadProjectConfig } from '../../src/config/index.js';
import { evaluateCalls } from '../../src/eval/call/evaluate.js';
import { McpHost } from '../../src/mcp/host.js';
import { replayOneRound, roundTripPrediction, silentLogger, testAgentOptions, withoutCodes } from '../support/agent-kit.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { repoRoot } from '../support/shared-assets.js';

const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-classes-'));
let host: McpHost;

beforeAll(async () => {
  const imageops = loadProjectConfig().servers.filter((spec) => spec.name === 'imagesorcery-mcp');
  host = await McpHost.start([...imageops, fixtureSpec('echo')], { requireAll: true, startupTimeoutMs: 120_000, logger: silentLogger });
}, 180_000);
afterAll(async () => {
  await host?.close();
});

describe('classification of not-found errors and "Error:" successes', () => {
  it('labels them resource_not_found and success', async () => {
    const calls = [
      { name: 'imagesorcery-mcp/grayscale', arguments: { input_path: './media/local/no-such-photo.png' } },
      { name: 'echo/echo', arguments: { text: 'Error: 0 warnings, the build is clean' } },
    ];
    const options = testAgentOptions([path.join(repoRoot, 'media')], { toolCallTimeoutMs: 30_000 });
    const trace = await replayOneRound({ id: 'K1', calls, cwd: repoRoot, workspace: workDir }, { host, options });
    const prediction = toPrediction({ id: 'K1' }, 'q', trace);
    expect(prediction.steps[0]?.calls[0]?.result).toBe('[Tool error] cannot read image "./media/local/no-such-photo.png": ENOENT');

    const coded = await evaluateCalls(roundTripPrediction(workDir, prediction));
    expect(coded.per_call.map((record) => record.label)).toEqual(['resource_not_found', 'success']);
    // From the text alone (no codes, as older files): the not-found error is still not-found.
    const fromText = await evaluateCalls(roundTripPrediction(workDir, withoutCodes(prediction)));
    expect(fromText.per_call[0]?.label).toBe('resource_not_found');
  });
});
