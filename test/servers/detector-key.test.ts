// The local detector answers under the ground truth's server key `dinox-mcp` (mcp_servers.json),
// the one name it has everywhere: in the configuration, its MCP identity, the tool names the host
// offers a model, the prediction file, the run store, and the step and call evaluators (the
// call evaluator checked against the reference's own catalog, where `mcp-yolo` is unknown).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProjectConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { McpHost } from '../../src/mcp/host.js';
import { episodesForRun, listRuns, openStore, toolCallsForEpisode } from '../../src/store/index.js';
import { gtCalls } from '../support/reference-tools.js';
import { assertAssetsInCi, missingAssetsMessage, repoRoot, sharedAssetsDir, sharedDataDir } from '../support/shared-assets.js';
import { nodeEntryArgs } from '../support/built-entry.js';
import { inProcessHost } from '../support/in-process-host.js';
import { runM3InProcess } from '../support/m3-in-process.js';

const detectorEntry = path.join(repoRoot, 'servers', 'yolo', 'index.ts');
const workDir = mkdtempSync(path.join(tmpdir(), 'm3-detector-key-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

// The m3 commands run in this process (test/support/m3-in-process.ts): what this file checks is the
// name they record and judge, not the CLI's process; the run still starts the detector as a child.
async function runCli(args: string[]): Promise<{ code: number; stdout: string; output: string }> {
  const result = await runM3InProcess(args);
  return { code: result.code ?? -1, stdout: result.stdout, output: result.output };
}

describe('the detector in the configuration and on the wire', () => {
  it('is configured once, as dinox-mcp, and no other key starts servers/yolo', () => {
    const servers = loadProjectConfig({ includeDisabled: true }).servers;
    const detectors = servers.filter((spec) => spec.args.includes(detectorEntry));
    expect(detectors.map((spec) => spec.name)).toEqual(['dinox-mcp']);
    expect(servers.some((spec) => spec.name === 'mcp-yolo')).toBe(false);
  });

  it('names itself dinox-mcp, and the host offers every GT dinox-mcp tool but the pose tool under dinox-mcp/<tool>', async () => {
    const client = new Client({ name: 'detector-key-test', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: nodeEntryArgs(detectorEntry),
        cwd: repoRoot,
        env: getDefaultEnvironment(),
        stderr: 'pipe',
      }),
    );
    try {
      expect(client.getServerVersion()?.name).toBe('dinox-mcp');
    } finally {
      await client.close();
    }
    // The tool names the host offers come from the configured key, not the process: the host's
    // server runs in this process (test/support/in-process-host.ts).
    const spec = loadProjectConfig().servers.filter((entry) => entry.name === 'dinox-mcp');
    const host = await McpHost.start(spec, { requireAll: true, logger: createLogger('error'), connectServer: inProcessHost({ local: true }).connectServer });
    try {
      const calls = gtCalls('dinox-mcp');
      const gtTools = calls ? [...new Set(calls.map((call) => call.tool))] : ['detect-all-objects', 'detect-objects-by-text'];
      expect(gtTools.length).toBeGreaterThanOrEqual(2);
      for (const tool of gtTools.filter((name) => name !== 'detect-human-pose-keypoints')) {
        const offered = host.findByCanonical(`dinox-mcp/${tool}`);
        expect(offered, tool).toBeDefined();
        expect(host.findByFunctionName(offered?.functionName ?? '')?.canonicalName).toBe(`dinox-mcp/${tool}`);
      }
      expect(host.tools.every((tool) => tool.canonicalName.startsWith('dinox-mcp/'))).toBe(true);
    } finally {
      await host.close();
    }
  }, 120_000);
});

interface SuiteTask {
  id: string;
  steps: Array<{ calls: Array<{ name: string; arguments?: unknown; expect_error?: boolean }> }>;
}

const assets = sharedAssetsDir();
const catalogFile = sharedDataDir() ? path.join(sharedDataDir() ?? '', 'tools_catalog.json') : undefined;
assertAssetsInCi();

describe.skipIf(!assets)(assets ? 'a replay-oracle run of the local suite detector tasks' : `detector run (skipped: ${missingAssetsMessage})`, () => {
  it('records dinox-mcp/<tool> in predictions and the store, and both evaluators match it', async () => {
    const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as unknown;
    const gt = readJson(path.join(repoRoot, 'json', 'm3_local_GT.json')) as SuiteTask[];
    // The tasks whose every call goes to the detector and is meant to succeed: a config with only
    // that server runs them, and each call should be classed a success.
    const detectorOnly = gt.filter((task) => {
      const calls = task.steps.flatMap((step) => step.calls);
      return calls.length > 0 && calls.every((call) => call.name.startsWith('dinox-mcp/') && !call.expect_error);
    });
    expect(detectorOnly.length).toBeGreaterThanOrEqual(3);
    const ids = new Set(detectorOnly.map((task) => task.id));
    const tasks = (readJson(path.join(repoRoot, 'json', 'm3_local_tasks.json')) as Array<{ id: string }>).filter((task) => ids.has(task.id));
    const files = {
      gt: path.join(workDir, 'gt.json'),
      tasks: path.join(workDir, 'tasks.json'),
      config: path.join(workDir, 'servers.json'),
      pred: path.join(workDir, 'pred.json'),
    };
    writeFileSync(files.gt, JSON.stringify(detectorOnly));
    writeFileSync(files.tasks, JSON.stringify(tasks));
    const configured = (readJson(path.join(repoRoot, 'mcp_servers.json')) as { servers: Record<string, unknown> }).servers;
    writeFileSync(files.config, JSON.stringify({ servers: { 'dinox-mcp': configured['dinox-mcp'] } }));

    const run = await runCli([
      'run',
      '--model',
      'replay:gt',
      '--tasks',
      files.tasks,
      '--gt',
      files.gt,
      '--config',
      files.config,
      '--image-dir',
      repoRoot,
      '--run-dir',
      workDir,
      '--output',
      files.pred,
      '--run-id',
      'detector-key',
    ]);
    expect(run.code, run.output.slice(-3000)).toBe(0);

    const predictions = readJson(files.pred) as Array<{ id: string; steps?: Array<{ calls?: Array<{ name: string; arguments?: unknown }> }> }>;
    const predicted = predictions.flatMap((record) => (record.steps ?? []).flatMap((step) => (step.calls ?? []).map((call) => call.name)));
    expect(predictions.map((record) => record.id).sort()).toEqual([...ids].sort());
    expect(predicted.length).toBe(detectorOnly.flatMap((task) => task.steps.flatMap((step) => step.calls)).length);
    expect(predicted.every((name) => name.startsWith('dinox-mcp/'))).toBe(true);
    // The servers map file arguments into the task's workspace themselves: the recorded arguments
    // are the ones sent, so they equal the GT's (paths included).
    const argumentsOf = (steps: Array<{ calls?: Array<{ name: string; arguments?: unknown }> }> | undefined) =>
      (steps ?? []).flatMap((step) => (step.calls ?? []).map((call) => [call.name, call.arguments]));
    for (const task of detectorOnly) {
      expect(argumentsOf(predictions.find((record) => record.id === task.id)?.steps), task.id).toEqual(argumentsOf(task.steps));
    }

    const store = openStore(path.join(workDir, 'm3bench.sqlite'));
    try {
      const runId = listRuns(store).find((entry) => entry.runId.startsWith('detector-key'))?.runId ?? '';
      const episodes = episodesForRun(store, runId);
      expect(episodes.map((episode) => episode.status)).toEqual(episodes.map(() => 'ok'));
      const stored = episodes.flatMap((episode) => toolCallsForEpisode(store, episode.id).map((row) => row.canonicalName));
      expect(stored.length).toBe(predicted.length);
      expect(stored.every((name) => name.startsWith('dinox-mcp/'))).toBe(true);
    } finally {
      store.close();
    }

    const stepDir = path.join(workDir, 'step');
    const step = await runCli(['eval', 'step', '--gt', files.gt, '--pred', files.pred, '--output-dir', stepDir]);
    expect(step.code, step.output.slice(-3000)).toBe(0);
    const aggregate = (readJson(path.join(stepDir, 'results_eval.json')) as { aggregate: Record<string, number> }).aggregate;
    expect(aggregate.recall).toBe(1);

    // The call evaluator against our own tool list, as `m3 servers list-tools --json` prints it.
    const ours = await runCli(['servers', 'list-tools', '--config', files.config, '--json']);
    expect(ours.code, ours.output.slice(-3000)).toBe(0);
    const oursFile = path.join(workDir, 'our-tools.json');
    writeFileSync(oursFile, ours.stdout);
    const labels = async (catalog: string) => {
      const out = path.join(workDir, `calls-${path.basename(catalog)}`);
      const call = await runCli(['eval', 'call', '--pred', files.pred, '--out', out, '--catalog', catalog]);
      expect(call.code, call.output.slice(-3000)).toBe(0);
      return (readJson(out) as { per_call: Array<{ name: string; label: string; detail?: string }> }).per_call;
    };
    const withOurs = await labels(oursFile);
    expect(withOurs.length).toBe(predicted.length);
    expect(withOurs.filter((entry) => entry.label !== 'success')).toEqual([]);
    // Against the reference's own catalog the names are known (under `mcp-yolo` they were
    // unknown_tool); its schema requires includeDescription, which ours and the local suite omit.
    if (!catalogFile) return;
    const withReference = await labels(catalogFile);
    expect(withReference.filter((entry) => entry.label === 'unknown_tool')).toEqual([]);
    expect(withReference.filter((entry) => entry.label !== 'success' && !/includeDescription/.test(entry.detail ?? ''))).toEqual([]);
  }, 400_000);
});
