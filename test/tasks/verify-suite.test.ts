// The bundled local suite (json/m3_local_*.json) replayed on our MCP servers' tool code: every
// task passes `m3 tasks verify`, the suite covers every tier, and deliberately broken copies of a
// task (a wrong label in a fact, an argument that breaks the tool's schema, a reply that lacks the
// fact's text) fail with messages naming the task and the fact. The library checks run on an
// McpHost whose servers answer in this process (test/support/in-process-host.ts: each server's
// own register function behind the SDK's in-memory transport, the host's every other part as in
// a run): what is checked is what the tools answer, not their processes, whose start-up
// test/cli/servers.test.ts checks for every configured server. The CLI's commands run in this
// process too (test/support/m3-in-process.ts: the CLI's program, its printing and exit status),
// and start the servers they need as children, as `m3 tasks verify` does.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadProjectConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { McpHost } from '../../src/mcp/host.js';
import { loadSuite, type LoadedSuite } from '../../src/tasks/verify-static.js';
import { serversUsed, verifySuite, type VerifyReport } from '../../src/tasks/verify.js';
import { assertAssetsInCi, missingAssetsMessage, repoRoot, sharedAssetsDir } from '../support/shared-assets.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { inProcessHost } from '../support/in-process-host.js';

assertAssetsInCi();
const mirror = sharedAssetsDir();
const gtFile = path.join(repoRoot, 'json', 'm3_local_GT.json');
const tasksFile = path.join(repoRoot, 'json', 'm3_local_tasks.json');
const workDir = mkdtempSync(path.join(tmpdir(), 'm3-verify-suite-'));

const runCli = (args: string[], env: Record<string, string> = {}) => runM3InProcess(args, env);

/** A copy of the suite with one GT task changed by `edit`, restricted to that task. */
function brokenCopy(suite: LoadedSuite, id: string, edit: (task: Record<string, unknown>) => void): LoadedSuite {
  const gt = structuredClone(suite.gt).map((task) => {
    if (task.id === id) edit(task as unknown as Record<string, unknown>);
    return task;
  });
  return { ...suite, gtFile: 'broken-gt.json', gt };
}

function failureText(report: VerifyReport): string {
  return report.tasks.flatMap((task) => task.problems.map((problem) => `${task.id}: ${problem}`)).join('\n');
}

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe.skipIf(!mirror)(mirror ? 'm3 tasks verify on the bundled local suite' : `m3 tasks verify (skipped: ${missingAssetsMessage})`, () => {
  let host: McpHost | undefined;
  let suite: LoadedSuite;
  const inProcess = inProcessHost({ local: true });

  beforeAll(async () => {
    const pulled = await runCli(['assets', 'pull'], { M3_ASSET_MIRROR: mirror ?? '' });
    expect(pulled.code, pulled.stderr).toBe(0);
    suite = loadSuite(gtFile, tasksFile);
    const needed = serversUsed(suite.gt);
    const config = loadProjectConfig();
    host = await McpHost.start(
      config.servers.filter((spec) => needed.includes(spec.name)),
      { startupTimeoutMs: 240_000, requireAll: true, logger: createLogger('error'), connectServer: inProcess.connectServer },
    );
    // Every server the suite uses answers in process: none is left to start as a child.
    expect(inProcess.connected.sort()).toEqual([...needed].sort());
  }, 400_000);

  afterAll(async () => {
    await host?.close();
  });

  it('passes on every task, with every tier covered and every fact held', async () => {
    if (!host) throw new Error('host did not start');
    const report = await verifySuite({ suite, host, root: repoRoot });
    expect(failureText(report)).toBe('');
    expect(report.suiteProblems).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.tasks.length).toBeGreaterThanOrEqual(40);
    const tiers = new Map<string, number>();
    for (const task of report.tasks) tiers.set(task.tier ?? '', (tiers.get(task.tier ?? '') ?? 0) + 1);
    for (const tier of ['basic', 'chain', 'parallel', 'conditional', 'exception']) expect(tiers.get(tier) ?? 0, tier).toBeGreaterThanOrEqual(5);
    for (const task of report.tasks) expect(task.factsHeld, task.id).toBe(task.facts);
    for (const task of suite.gt) {
      if (task.tier === 'chain') expect(task.steps.length, task.id).toBeGreaterThanOrEqual(2);
      if (task.tier === 'parallel')
        expect(
          task.steps.some((step) => step.calls.length >= 2),
          task.id,
        ).toBe(true);
      if (task.tier === 'exception')
        expect(
          task.facts?.some((fact) => fact.expectError),
          task.id,
        ).toBe(true);
    }
    // Office outputs: at least one deck and one workbook are built from tool results.
    const tools = new Set(suite.gt.flatMap((task) => task.steps.flatMap((step) => step.calls.map((call) => call.name))));
    for (const name of [
      'ppt/save_presentation',
      'excel/write_data_to_excel',
      'imagesorcery-mcp/crop',
      'dinox-mcp/detect-all-objects',
      'ocr/perform_ocr',
      'pyzbar-mcp/scan_barcode',
    ]) {
      expect(tools.has(name), name).toBe(true);
    }
  }, 400_000);

  it('fails a copy whose fact expects the wrong label, naming the task and the fact', async () => {
    if (!host) throw new Error('host did not start');
    const broken = brokenCopy(suite, 'L0009', (task) => {
      (task.facts as Array<Record<string, unknown>>)[1] = { step: 1, call: 0, path: 'objects[0].name', equals: 'cat', reply: 'a bird' };
    });
    const report = await verifySuite({ suite: broken, host, root: repoRoot, only: ['L0009'] });
    expect(report.passed).toBe(false);
    expect(failureText(report)).toBe('L0009: fact 2 (step 1 call 0, objects[0].name equals "cat"): expected "cat", got "bird"');
  }, 120_000);

  it('fails a copy whose call breaks the tool schema, naming the call and the facts that depend on it', async () => {
    if (!host) throw new Error('host did not start');
    const broken = brokenCopy(suite, 'L0003', (task) => {
      const steps = task.steps as Array<{ calls: Array<{ arguments: Record<string, unknown> }> }>;
      const call = steps[0]?.calls[0];
      if (call) call.arguments = { imageFileUri: 42 };
    });
    const report = await verifySuite({ suite: broken, host, root: repoRoot, only: ['L0003'] });
    expect(report.passed).toBe(false);
    const text = failureText(report);
    expect(text).toMatch(
      /^L0003: step 1 call 0 \(dinox-mcp\/detect-all-objects\): arguments do not match the tool's input schema: arguments\/imageFileUri must be string$/m,
    );
    expect(text).toMatch(/^L0003: fact 1 \(step 1 call 0, counts\.dog equals 2\): the call was not made/m);
  }, 120_000);

  it('fails a copy whose final reply lacks a fact text, and one whose fuzzy question names a tool', async () => {
    if (!host) throw new Error('host did not start');
    const broken = brokenCopy(suite, 'L0012', (task) => {
      task.final_reply = 'The QR code holds ORDER=A1044;DEST=MADRID;WEIGHT=5.8, so sending the parcel costs 26 euros.';
    });
    broken.tasks = broken.tasks.map((task) =>
      task.id === 'L0012' ? { ...task, question: 'Use scan_barcode on the label, then multiply the weight by 4.50.' } : task,
    );
    const report = await verifySuite({ suite: broken, host, root: repoRoot, only: ['L0012'] });
    expect(report.passed).toBe(false);
    expect(report.tasks[0]?.problems).toEqual([
      'fuzzy question names "scan_barcode": rephrase it as a user would, without tool or server names',
      'fact 2 (step 2 call 0 number 26.1 ±0.001): final_reply does not contain its reply text "26.10"',
    ]);
  }, 120_000);

  it('runs as `m3 tasks verify`: JSON report and exit 0 on a subset, exit 1 with named failures on a broken file', async () => {
    const reportSchema = z
      .object({ passed: z.boolean(), tasks: z.array(z.object({ id: z.string(), status: z.string(), facts: z.number(), factsHeld: z.number() }).loose()) })
      .loose();
    const good = await runCli(['tasks', 'verify', '--only', 'L0002,L0006', '--json']);
    expect(good.code, good.stderr).toBe(0);
    const report = reportSchema.parse(JSON.parse(good.stdout));
    expect(report.passed).toBe(true);
    expect(report.tasks.map((task) => [task.id, task.status, task.factsHeld === task.facts])).toEqual([
      ['L0002', 'passed', true],
      ['L0006', 'passed', true],
    ]);

    const gt = structuredClone(loadSuite(gtFile, tasksFile).gt).filter((task) => task.id === 'L0002');
    const fact = gt[0]?.facts?.[0];
    if (fact) fact.equals = '5901234123458';
    const brokenGt = path.join(workDir, 'broken-gt.json');
    writeFileSync(brokenGt, JSON.stringify(gt, null, 2));
    const bad = await runCli(['tasks', 'verify', '--gt', brokenGt, '--tasks', tasksFile, '--only', 'L0002']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(
      'L0002: fact 1 (step 1 call 0, results[0].codes[0].text equals "5901234123458"): expected "5901234123458", got "5901234123457"',
    );
    expect(bad.stdout).toMatch(/^L0002 +basic +1 +1\/2 +FAILED +fact 1 /m);
    expect(bad.stdout).toContain('0/1 task(s) passed');
  }, 400_000);
});
