// Whole runs of the replay oracle (`m3 run`'s runModel) over a small task set whose servers fail
// in several ways: with M3_MOCK_FALLBACK=1 every mockable failure is served (the episode goes
// on as with a real result), the unmockable one stays an infrastructure failure, and the audit
// log, the store's tier column, the predictions' per-call field, the summary share and the
// report's table and the viewer's run page agree; the manifest records the settings. With the switch off, the prediction
// file is byte-identical to a run that never goes near the layer's code path.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentOptionsFrom } from '../../src/agent/options.js';
import type { ProjectConfig } from '../../src/config/index.js';
import { parseSwitches } from '../../src/config/switches.js';
import { createReplayDriver } from '../../src/llm/replay/driver.js';
import { McpHost } from '../../src/mcp/index.js';
import { mockedShare, mockedShareTable } from '../../src/report/fallback-share.js';
import { PredictionFile } from '../../src/runner/prediction-file.js';
import { runBatch } from '../../src/runner/run-batch.js';
import { runModel } from '../../src/runner/run-model.js';
import { StoreRecorder } from '../../src/runner/store-recorder.js';
import { loadTaskSet } from '../../src/runner/task-set.js';
import { createRun, episodesForRun, fallbackShare, openStore, toolCallsForEpisode, type Store } from '../../src/store/index.js';
import { runPage } from '../../src/view/pages.js';
import { startHttpFake, type HttpFake } from '../../servers/shared/http-fake.js';
import { readAudit, silentLogger, writeFixture } from '../support/fallback-kit.js';
import { fixtureRepoRoot, fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { inProcessHost } from '../support/in-process-host.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-fallback-run-'));
const runtimeDir = path.join(dir, 'mock_runtime');
const failing = new Set(['Paris', 'Nowhere']);
const task = (id: string, steps: Array<Array<[string, Record<string, unknown>]>>) => ({
  id,
  question: `question ${id}`,
  final_reply: `answer ${id}`,
  steps: steps.map((calls, index) => ({ step: index + 1, calls: calls.map(([name, args]) => ({ name, arguments: args })) })),
});
const groundTruth = [
  task('t-ok', [[['echo/echo', { text: 'hi' }]]]),
  task('t-fixture', [[['flaky/lookup', { city: 'Paris' }]]]),
  task('t-template', [[['flaky/forecast', { city: 'Lima', days: 2 }]]]),
  task('t-mixed', [[['flaky/lookup', { city: 'Rome' }]], [['crashing/crash', { code: 4 }]]]),
  task('t-infra', [[['ocr/lookup', { city: 'Nowhere' }]]]),
  task('t-model', [[['flaky/reject', { city: 'Atlantis' }]]]),
];
const tasksFile = path.join(dir, 'tasks.json');
const gtFile = path.join(dir, 'gt.json');
let fake: HttpFake;
let host: McpHost;
let store: Store;

beforeAll(async () => {
  writeFileSync(tasksFile, JSON.stringify(groundTruth.map(({ id, question }) => ({ id, question }))));
  writeFileSync(gtFile, JSON.stringify(groundTruth));
  writeFixture(runtimeDir, 'flaky/lookup', [{ arguments: { city: 'Paris' }, result: 'fixture: Paris, 21 °C', source: 'test' }]);
  writeFixture(runtimeDir, 'crashing/crash', [{ arguments: '*', result: 'fixture: crash default', source: 'test' }]);
  writeFixture(runtimeDir, 'ocr/lookup', [{ arguments: '*', result: 'must never be served', source: 'test' }]);
  fake = await startHttpFake([
    {
      path: '/weather',
      reply: (request) =>
        failing.has(String(request.query.city)) ? { status: 500, body: 'down' } : { status: 200, body: `real: ${String(request.query.city)} 17 °C` },
    },
    { path: '/forecast', reply: { status: 503, body: 'down' } },
  ]);
  const web = (name: string) => fixtureSpec('flaky-web', { name, env: { FLAKY_UPSTREAM_URL: fake.url, M3_HTTP_TIMEOUT_MS: '10000' } });
  // echo and flaky-web in process; crashing stays a child (its crash is a process exit).
  host = await McpHost.start([fixtureSpec('echo'), web('flaky'), web('ocr'), fixtureSpec('crashing')], {
    requireAll: true,
    startupTimeoutMs: 90_000,
    logger: silentLogger,
    connectServer: inProcessHost().connectServer,
  });
  store = openStore(path.join(dir, 'store.sqlite'));
}, 120_000);

afterAll(async () => {
  store?.close();
  await host?.close();
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

function config(switches: Record<string, string>): ProjectConfig {
  return {
    env: {},
    serversFile: path.join(dir, 'servers.json'),
    servers: [],
    switches: parseSwitches({ M3_MAX_TASK_REQUEUE: '0', M3_MOCK_DIR: runtimeDir, ...switches }),
  };
}

async function run(runId: string, switches: Record<string, string>) {
  const output = path.join(dir, runId, 'replay-gt_test_mcp_fuzzy.json');
  const report = await runModel(
    {
      model: 'replay:gt',
      taskSet: loadTaskSet({ tasksFile, gtFile, fuzzy: true }),
      limits: { maxStep: 4, maxConcurrent: 4, topTools: 0, maxNewTokens: 100 },
      concurrency: 1,
      runId,
      resume: false,
      overwrite: true,
      output,
      resultsDir: path.join(dir, runId),
      imageDirs: [dir],
      allowMissingServers: false,
    },
    { config: config(switches), host, store, logger: silentLogger, root: fixtureRepoRoot },
  );
  return { report, output, text: readFileSync(output, 'utf8') };
}

type Call = { name: string; result: string; error_code?: string; fallback?: { tier: string; original_error_code: string } };
const callsOf = (text: string) =>
  new Map(
    (JSON.parse(text) as Array<{ id: string; steps: Array<{ calls: Call[] }> }>).map((record) => [record.id, record.steps.flatMap((step) => step.calls)]),
  );

describe('a run with the fallback layer on', () => {
  it('serves every mockable failure, keeps the rest, and every record of it agrees', async () => {
    const { report, output, text } = await run('mixed', { M3_MOCK_FALLBACK: '1', M3_MOCK_LLM: '0', M3_MOCK_ALLOW: 'flaky/forecast' });
    expect(report.result.failures.map((failure) => [failure.taskId, failure.verdict.status, failure.verdict.code])).toEqual([
      ['t-infra', 'infra_failure', 'upstream_server_error'],
    ]);
    const calls = callsOf(text);
    expect([...calls.keys()].sort()).toEqual(['t-fixture', 't-mixed', 't-model', 't-ok', 't-template']);
    expect(calls.get('t-ok')).toEqual([{ name: 'echo/echo', arguments: { text: 'hi' }, result: 'hi' }]);
    expect(calls.get('t-fixture')).toEqual([
      {
        name: 'flaky/lookup',
        arguments: { city: 'Paris' },
        result: 'fixture: Paris, 21 °C',
        fallback: { tier: 'fixture', original_error_code: 'upstream_server_error' },
      },
    ]);
    expect(calls.get('t-template')?.[0]?.fallback).toEqual({ tier: 'template', original_error_code: 'upstream_server_error' });
    expect(calls.get('t-mixed')).toEqual([
      { name: 'flaky/lookup', arguments: { city: 'Rome' }, result: 'real: Rome 17 °C' },
      {
        name: 'crashing/crash',
        arguments: { code: 4 },
        result: 'fixture: crash default',
        fallback: { tier: 'fixture', original_error_code: 'server_crashed' },
      },
    ]);
    expect(calls.get('t-model')?.[0]).toMatchObject({ error_code: 'tool_error' });
    expect(calls.get('t-model')?.[0]?.fallback).toBeUndefined();

    // Audit log: one line per served call, with run and task.
    const audit = readAudit(path.join(runtimeDir, 'logs', '_mock_calls.log')).filter((entry) => entry.run === 'mixed');
    const served = [...calls].flatMap(([id, list]) => list.filter((call) => call.fallback).map((call) => `${id} ${call.name} ${call.fallback?.tier}`));
    expect(audit.map((entry) => `${entry.task} ${entry.server}/${entry.tool} ${entry.tier}`).sort()).toEqual(served.sort());
    // Store: the tier column holds the same calls; the infra failure's call has none.
    const stored = episodesForRun(store, 'mixed').flatMap((episode) => toolCallsForEpisode(store, episode.id).map((row) => ({ task: episode.taskId, row })));
    expect(
      stored
        .filter(({ row }) => row.fallback)
        .map(({ task, row }) => `${task} ${row.canonicalName} ${row.fallback?.tier}`)
        .sort(),
    ).toEqual(served.sort());
    expect(stored.find(({ task }) => task === 't-infra')?.row).toMatchObject({ isError: true, errorCode: 'upstream_server_error', fallback: null });
    // The store's count and the prediction file's (summary, report, evaluation outputs) say the same.
    const [share] = fallbackShare(store, 'mixed');
    expect(share).toEqual({ model: 'replay:gt', calls: 6, mockedCalls: 3, tasks: 5, mockedTasks: 3, byTier: { fixture: 2, template: 1 } });
    const fromPredictions = mockedShare('replay-gt', output, report.manifestFile);
    expect(fromPredictions).toMatchObject({ fallbackEnabled: true, calls: 6, mockedCalls: 3, tasks: 5, mockedTasks: 3, byTier: share?.byTier });
    // The viewer counts from the store (a run in flight has no final prediction file): the same numbers.
    const page = runPage({ store, resultsDir: path.join(dir, 'mixed') }, 'mixed');
    expect(page.run.mocked).toEqual({ calls: fromPredictions?.calls, mockedCalls: fromPredictions?.mockedCalls, share: 0.5, byTier: fromPredictions?.byTier });
    expect(mockedShareTable([fromPredictions])?.rows).toEqual([
      ['replay-gt [oracle: the ground truth replayed]', '3/6', '50%', '3/5', '60%', 'fixture 2, template 1'],
    ]);
    // The manifest says what the layer did.
    const manifest = JSON.parse(readFileSync(report.manifestFile, 'utf8')) as { fallback: Record<string, unknown> };
    expect(manifest.fallback).toMatchObject({ enabled: true, record: true, simulator: null, markInline: false, extraAllowed: ['flaky/forecast'] });
  }, 180_000);
});

describe('a run with the fallback layer off', () => {
  it("writes a prediction file byte-identical to a run without the layer's code path", async () => {
    const off = await run('off', { M3_MOCK_FALLBACK: '0' });
    expect(off.report.result.failures.map((failure) => failure.taskId).sort()).toEqual(['t-fixture', 't-infra', 't-mixed', 't-template']);
    expect(JSON.parse(readFileSync(off.report.manifestFile, 'utf8')).fallback).toEqual({ enabled: false, record: false });

    const taskSet = loadTaskSet({ tasksFile, gtFile, fuzzy: true });
    const switches = config({}).switches;
    const driver = await createReplayDriver('gt', { env: {}, groundTruth: taskSet.groundTruth, timeoutMs: 0 });
    const options = agentOptionsFrom(switches, { maxStep: 4, maxConcurrent: 4, topTools: 0, maxNewTokens: 100 }, [path.join(fixtureRepoRoot, 'media')]);
    const predictions = new PredictionFile(path.join(dir, 'bare', 'replay-gt_test_mcp_fuzzy.json'));
    createRun(store, { runId: 'bare', modelSpec: driver.id, modelLabel: 'replay-gt' });
    await runBatch(
      taskSet.tasks,
      {
        driver,
        host,
        options,
        root: fixtureRepoRoot,
        runId: 'bare',
        workspaceMode: switches.M3_WORKSPACE_MODE,
        keepWorkspace: switches.M3_KEEP_WORKSPACE,
        imageSearchDirs: [dir],
        taskTimeoutMs: 0,
      },
      { concurrency: 1, maxRequeue: 0, recorder: new StoreRecorder(store, 'bare', driver.id), predictions },
    );
    expect(readFileSync(predictions.file, 'utf8')).toBe(off.text);
    expect(off.text).not.toContain('"fallback"');
  }, 180_000);
});
