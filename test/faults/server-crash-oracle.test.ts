// A server killed (SIGKILL) during a replay-oracle run of tasks of the bundled local suite, on the
// real servers: the tasks whose call died are infrastructure failures (requeued, then left out of
// the prediction file), never scored with the crash message as the tool's answer; a task that
// recovers on its requeue is scored normally; and the oracle's recall and recall_success on
// every scored task are what a run without the crash gives. The killed server is a real child
// (its crash is a process exit); the others answer in the test's process
// (test/support/in-process-host.ts), their tool code the same, without more node starts.
//
// The run covers six of the suite's tasks, not all 44: the three that call the killed server
// with the barcode server only (the kill is aimed at the first and third; the second makes sure
// the server is back before the third starts), and three that do not call it, one basic and two
// exception-tier tasks whose ground truth fails a call on purpose (`expect_error`), on the
// barcode and image-operations servers. Those three prove that the crash leaves the rest of the
// run scored as a clean run (recall 1, recall_success short only by the deliberate failures);
// that every task of the suite replays cleanly is test/tasks/verify-suite.test.ts's job. The
// subset keeps the OCR and detector models out of the run (each would load in this process and
// run on every image).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentOptionsFrom } from '../../src/agent/options.js';
import { loadProjectConfig } from '../../src/config/index.js';
import { createEmbedder } from '../../src/eval/embed/registry.js';
import { defaultThresholds } from '../../src/eval/step/metrics.js';
import { runStepFiles } from '../../src/eval/step/run.js';
import { createReplayDriver } from '../../src/llm/replay/driver.js';
import { createLogger } from '../../src/log/logger.js';
import { McpHost } from '../../src/mcp/host.js';
import { PredictionFile } from '../../src/runner/prediction-file.js';
import { runBatch } from '../../src/runner/run-batch.js';
import { StoreRecorder } from '../../src/runner/store-recorder.js';
import { loadTaskSet } from '../../src/runner/task-set.js';
import { createRun, episodesForRun, openStore } from '../../src/store/index.js';
import { serversUsed } from '../../src/tasks/verify.js';
import { inProcessHost } from '../support/in-process-host.js';
import { assertAssetsInCi, missingAssetsMessage, repoRoot, sharedAssetsDir } from '../support/shared-assets.js';

assertAssetsInCi();
const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-crash-'));
const killed = 'math';
// In suite order: L0012, L0022 and L0033 call math (and pyzbar-mcp); L0002 (basic), L0037 and
// L0041 (exception tier, one deliberate failure each) do not.
const subset = ['L0002', 'L0012', 'L0022', 'L0033', 'L0037', 'L0041'];

/** The subset's records of one of the suite's JSON files, written to workDir (image paths stay repo-relative). */
function subsetFile(name: string): string {
  const records = JSON.parse(readFileSync(path.join(repoRoot, 'json', name), 'utf8')) as Array<{ id: string }>;
  const file = path.join(workDir, name);
  writeFileSync(file, JSON.stringify(records.filter((record) => subset.includes(record.id))));
  return file;
}
const gtFile = subsetFile('m3_local_GT.json');
const tasksFile = subsetFile('m3_local_tasks.json');

describe.skipIf(!sharedAssetsDir())(`a server killed during an oracle run${sharedAssetsDir() ? '' : ` (skipped: ${missingAssetsMessage})`}`, () => {
  let host: McpHost | undefined;
  const taskSet = loadTaskSet({ tasksFile, gtFile, fuzzy: true });

  const inProcess = inProcessHost({ local: true });

  beforeAll(async () => {
    const config = loadProjectConfig();
    const needed = serversUsed([...taskSet.groundTruth.values()]);
    host = await McpHost.start(
      config.servers.filter((spec) => needed.includes(spec.name)),
      {
        startupTimeoutMs: 240_000,
        requireAll: true,
        logger: createLogger('error'),
        connectServer: (spec) => (spec.name === killed ? undefined : inProcess.connectServer(spec)),
      },
    );
    // Every server but the killed one answers in process; the killed one is a process with a pid.
    expect(inProcess.connected.sort()).toEqual(needed.filter((name) => name !== killed).sort());
    expect(host.status().find((server) => server.name === killed)?.pid).toEqual(expect.any(Number));
  }, 300_000);
  afterAll(async () => {
    await host?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('reports the crashed tasks as infrastructure and scores the rest as a clean run would', async () => {
    if (!host) throw new Error('host did not start');
    const liveHost = host;
    const usesKilled = (id: string) => taskSet.groundTruth.get(id)?.steps.some((step) => step.calls.some((call) => String(call.name).startsWith(`${killed}/`)));
    // Two tasks that call the server: `always` loses it on both attempts, `once` only on its first.
    // A task calling it in between makes sure the server is back before `once` starts.
    const [always, , once] = taskSet.tasks.map((task) => task.id).filter(usesKilled);
    if (!always || !once) throw new Error(`the local suite has fewer than three tasks calling ${killed}`);
    // The subset is what the header says: every id found, three calling the killed server.
    expect(taskSet.tasks.map((task) => task.id)).toEqual(subset);
    expect(taskSet.tasks.map((task) => task.id).filter(usesKilled)).toEqual(['L0012', 'L0022', 'L0033']);

    const attempts = new Map<string, number>();
    const killedIn = new Set<string>();
    const kills: string[] = [];
    // The call a kill is aimed at: set by the agent's tool_call_start event, carried out in the
    // host's callTool just before the call is sent. A requeued attempt can start while the server
    // is still restarting from the kill before it; the kill then waits for the new process (the
    // call itself would wait for it too), so it always lands on a live server's call.
    const aimed = new Map<string, string>();
    const killedPids = new Set<number>();
    const onEvent = (event: { type: string; taskId: string; name?: string }) => {
      if (event.type === 'episode_start') attempts.set(event.taskId, (attempts.get(event.taskId) ?? 0) + 1);
      if (event.type !== 'tool_call_start' || !event.name?.startsWith(`${killed}/`)) return;
      const attempt = attempts.get(event.taskId) ?? 0;
      const wanted = event.taskId === always || (event.taskId === once && attempt === 1);
      const key = `${event.taskId}#${attempt}`;
      if (!wanted || killedIn.has(key)) return;
      killedIn.add(key);
      aimed.set(event.name, key);
    };
    const callTool = liveHost.callTool.bind(liveHost);
    liveHost.callTool = async (canonicalName, args, callOptions) => {
      const key = aimed.get(canonicalName);
      if (key !== undefined) {
        aimed.delete(canonicalName);
        const pid = await restartedPid(liveHost, killed, killedPids);
        if (pid !== undefined) {
          process.kill(pid, 'SIGKILL');
          killedPids.add(pid);
          kills.push(key); // an undefined pid (never back) leaves `kills` short: the assertion reports it
        }
      }
      return callTool(canonicalName, args, callOptions);
    };

    const store = openStore(path.join(workDir, 'store.sqlite'));
    const switches = { ...loadProjectConfig().switches, M3_MAX_TASK_REQUEUE: 1 };
    const driver = await createReplayDriver('gt', { env: {}, groundTruth: taskSet.groundTruth, timeoutMs: 0 });
    const options = agentOptionsFrom(switches, { maxStep: 6, maxConcurrent: 10, topTools: 0, maxNewTokens: 1024 }, [path.join(repoRoot, 'media')]);
    const predictions = new PredictionFile(path.join(workDir, 'replay-gt_test_mcp_fuzzy.json'));
    createRun(store, { runId: 'crash', modelSpec: driver.id, modelLabel: 'replay-gt' });
    // One task at a time, so each kill lands in the call it is aimed at and every other call
    // finds the server restarted.
    const result = await runBatch(
      taskSet.tasks,
      { driver, host, options, root: repoRoot, runId: 'crash', workspaceMode: 'dedup', keepWorkspace: false, imageSearchDirs: [repoRoot], taskTimeoutMs: 0 },
      { concurrency: 1, maxRequeue: switches.M3_MAX_TASK_REQUEUE, recorder: new StoreRecorder(store, 'crash', driver.id), predictions, onEvent },
    );
    expect([...kills].sort()).toEqual([`${always}#1`, `${always}#2`, `${once}#1`].sort());

    // The task that lost its server twice is an infrastructure failure with the crash code.
    expect(result.failures.map((failure) => [failure.taskId, failure.verdict.status, failure.verdict.code, failure.attempts])).toEqual([
      [always, 'infra_failure', 'server_crashed', 2],
    ]);
    expect(result.failures[0]?.verdict.message).toContain(`server "${killed}" exited unexpectedly (killed by SIGKILL)`);
    expect(result.progress).toMatchObject({ done: taskSet.tasks.length, failedInfra: 1, failedModel: 0, requeued: 2 });
    const rows = episodesForRun(store, 'crash');
    const infraRows = rows.filter((row) => row.status === 'infra_failure').map((row) => `${row.taskId} ${row.errorCode}`);
    expect(infraRows.sort()).toEqual([`${always} server_crashed`, `${always} server_crashed`, `${once} server_crashed`].sort());
    expect(rows.filter((row) => row.taskId === once).map((row) => row.status)).toEqual(['infra_failure', 'ok']);
    store.close();

    // Left out of the predictions; the recovered task is in them; no crash text anywhere.
    const written = readFileSync(predictions.file, 'utf8');
    const records = JSON.parse(written) as Array<{ id: string }>;
    expect(records.map((record) => record.id).sort()).toEqual(
      taskSet.tasks
        .map((task) => task.id)
        .filter((id) => id !== always)
        .sort(),
    );
    expect(written).not.toContain('exited unexpectedly');

    // Step scores of every scored task: recall 1, and recall_success 1 except for the calls the
    // exception tier fails on purpose (`expect_error` in the ground truth).
    const step = await runStepFiles({
      gtFile,
      predFile: predictions.file,
      outputDir: path.join(workDir, 'eval'),
      embedder: createEmbedder(),
      mode: 'default',
      thresholds: defaultThresholds,
    });
    const scored = step.evaluation.perId.filter((score) => score.id !== always);
    expect(scored).toHaveLength(taskSet.tasks.length - 1);
    const withDeliberate: string[] = [];
    for (const score of scored) {
      const calls = taskSet.groundTruth.get(score.id)?.steps.flatMap((gtStep) => gtStep.calls) ?? [];
      const deliberate = calls.filter((call) => (call as { expect_error?: boolean }).expect_error === true).length;
      if (deliberate > 0) withDeliberate.push(score.id);
      expect([score.id, score.recall]).toEqual([score.id, 1]);
      expect([score.id, score.corrected.recall_success]).toEqual([score.id, (calls.length - deliberate) / calls.length]);
    }
    expect(step.evaluation.perId.find((score) => score.id === always)?.corrected.missing_prediction).toBe(true);
    // The scored tasks include deliberate failures, so recall_success below 1 is checked too.
    expect(withDeliberate).toEqual(['L0037', 'L0041']);
  }, 900_000);
});

/**
 * The pid of `server` once a process not killed before is running and ready (bounded: a hang
 * guard sized for a loaded machine). A killed process can still show as ready for a moment,
 * until the host has read its exit.
 */
async function restartedPid(host: McpHost, server: string, killedPids: ReadonlySet<number>): Promise<number | undefined> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const status = host.status().find((entry) => entry.name === server);
    if (status?.state === 'ready' && status.pid !== undefined && !killedPids.has(status.pid)) return status.pid;
    if (Date.now() > deadline) return undefined;
    await sleep(20);
  }
}
