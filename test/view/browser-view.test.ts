// The run viewer end to end: a store built by `m3 run` (replay:gt and replay:noisy over four
// bundled local tasks, with only the servers they need) and `m3 eval step` (both in the test's
// process, test/support/m3-in-process.ts), served by the
// viewer and driven in Debian's Chromium: runs → run → task, a tool's image in the transcript,
// the alignment's matched/missed/extra counts equal to the evaluation output, the status
// filter, the comparison of the two runs with the paired difference `m3 compare` prints; then a
// live run (`m3 run` in a child process against the wire-level mock LLM, writing the same store,
// its weather calls failing upstream and served by the fallback layer) appearing in a runs page
// opened before it started, then followed without a reload, and the tier filter on it; screenshots at 1280 and 390 px in test-artifacts/.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { findBatchManifests } from '../../src/runner/batch-manifest.js';
import { loadBatchResults } from '../../src/stats/batch-results.js';
import { getRun, listRuns, openStore, type Store } from '../../src/store/index.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { artifactPath, assertChromiumInCi, hasChromium, launchBrowser, missingChromiumMessage, type TestBrowser } from '../demo/browser.js';
import { closedPortUrl } from '../support/fallback-kit.js';
import { startMockLlm, type MockLlm, type RecordedRequest } from '../support/mock-llm/index.js';
import { startHeldUpstream, type HeldUpstream } from './held-upstream.js';
import { repoRoot } from '../support/shared-assets.js';
import { m3EntryArgs } from '../support/built-entry.js';
import { runM3InProcess } from '../support/m3-in-process.js';

assertChromiumInCi();
const taskIds = new Set(['L0007', 'L0012', 'L0033', 'L0041']);
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/**
 * `m3 <args>` in this process (test/support/m3-in-process.ts): what these commands write and print
 * is the point here, not their process; the live run below stays a child, a second process
 * writing the store the viewer reads.
 */
async function m3(args: string[]): Promise<string> {
  const result = await runM3InProcess(args);
  if (result.code !== 0) throw new Error(`m3 ${args.join(' ')} exited with ${result.code}:\n${result.output}`);
  return result.stdout;
}

/** Task, GT and server files limited to `taskIds` and the servers their ground truth uses. */
function writeSubset(dir: string): { tasks: string; gt: string; servers: string } {
  const pick = (file: string) => (readJson(path.join(repoRoot, file)) as Array<{ id: string }>).filter((task) => taskIds.has(task.id));
  const files = { tasks: path.join(dir, 'tasks.json'), gt: path.join(dir, 'gt.json'), servers: path.join(dir, 'servers.json') };
  writeFileSync(files.tasks, JSON.stringify(pick('json/m3_local_tasks.json')));
  writeFileSync(files.gt, JSON.stringify(pick('json/m3_local_GT.json')));
  const config = readJson(path.join(repoRoot, 'mcp_servers.json')) as { servers: Record<string, unknown> };
  const wanted = new Set(['math', 'pyzbar-mcp', 'imagesorcery-mcp']);
  writeFileSync(files.servers, JSON.stringify({ ...config, servers: Object.fromEntries(Object.entries(config.servers).filter(([name]) => wanted.has(name))) }));
  return files;
}

// `m3 run --run-id live-run` names the run of each model `<run id>.<label>`.
const liveRunId = 'live-run.mock-model';
const liveTasks = ['L0007', 'L0012', 'L0033'];

/**
 * The mock model of the live run: the first and third task ask the weather tool once, then
 * answer; the second answers at once (no tool, nothing mocked). The run reaches the model through
 * held-upstream.ts, so it stays in flight (its first request held) until the test has seen it in
 * the page. The weather upstream is a closed port, so every call fails for an infrastructure
 * reason and the fallback layer serves it.
 */
function liveModel() {
  let tasksStarted = 0;
  const usage = { inputTokens: 100, outputTokens: 10 };
  const answer = { text: 'live answer: the weather service did not answer', usage };
  return (request: RecordedRequest) => {
    const messages = (request.body as { messages?: Array<{ role?: string }> }).messages ?? [];
    if (messages.some((message) => message.role === 'tool')) return answer;
    tasksStarted += 1;
    if (tasksStarted === 2) return answer;
    return { toolCalls: [{ name: 'weather__get_weather', arguments: { location: 'Boston', units: 'us' } }], usage };
  };
}

interface LiveRun {
  child: ChildProcess;
  exit: Promise<number | null>;
  output: () => string;
}

async function startLiveRun(dir: string, storeFile: string, openAiBaseUrl: string): Promise<LiveRun> {
  const tasks = path.join(dir, 'live-tasks.json');
  const servers = path.join(dir, 'live-servers.json');
  const upstream = await closedPortUrl();
  writeFileSync(
    tasks,
    JSON.stringify((readJson(path.join(repoRoot, 'json/m3_local_tasks.json')) as Array<{ id: string }>).filter((task) => liveTasks.includes(task.id))),
  );
  const weather = (readJson(path.join(repoRoot, 'mcp_servers.json')) as { servers: Record<string, { env?: Record<string, string> }> }).servers.weather!;
  const env = { M3_UPSTREAM_OPEN_METEO_URL: upstream, M3_UPSTREAM_OPEN_METEO_GEOCODING_URL: upstream, M3_UPSTREAM_ZIPPOPOTAM_URL: upstream };
  writeFileSync(servers, JSON.stringify({ servers: { weather: { ...weather, env } } }));
  const args = ['run', '--model', 'openai:mock-model', '--run-id', 'live-run', '--tasks', tasks, '--config', servers, '--image-dir', 'media'];
  args.push('--run-dir', path.join(dir, 'live-results'), '--store', storeFile, '--concurrency', '1', '--overwrite');
  const child = spawn(process.execPath, [...m3EntryArgs(), ...args], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: os.homedir(),
      CI: '1',
      M3_NETWORK_GUARD: 'loopback',
      OPENAI_BASE_URL: openAiBaseUrl,
      OPENAI_API_KEY: 'sk-test-live-run-000000000000',
      M3_LLM_MAX_RETRIES: '0',
      M3_MOCK_FALLBACK: '1',
      M3_MOCK_LLM: '0',
      M3_MOCK_ALLOW: 'weather/*',
      M3_MOCK_DIR: path.join(dir, 'mock-runtime'),
    },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  return { child, exit: new Promise((resolve) => child.on('exit', (code) => resolve(code))), output: () => output };
}

/** The run page's table has answered the last filter or sort change (it is busy while a query is in flight). */
async function settled(page: Page): Promise<void> {
  await page.waitForSelector('#task-holder[aria-busy="false"]');
}

async function textOf(page: Page, selector: string): Promise<string> {
  return (await page.textContent(selector)) ?? '';
}

describe.skipIf(!hasChromium)(`m3 view in Chromium${hasChromium ? '' : ` (skipped: ${missingChromiumMessage})`}`, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-view-'));
  const resultsDir = path.join(dir, 'results');
  let store: Store;
  let view: ViewServer;
  let browser: TestBrowser;
  let page: Page;
  let runIds: { gt: string; noisy: string };
  let mock: MockLlm;
  let held: HeldUpstream;
  let live: LiveRun | undefined;

  beforeAll(async () => {
    const files = writeSubset(dir);
    await m3([
      'run',
      '--model',
      'replay:gt',
      'replay:noisy',
      '--tasks',
      files.tasks,
      '--gt',
      files.gt,
      '--image-dir',
      'media',
      '--config',
      files.servers,
      '--run-dir',
      resultsDir,
      '--overwrite',
    ]);
    for (const label of ['replay-gt', 'replay-noisy']) {
      await m3([
        'eval',
        'step',
        '--gt',
        files.gt,
        '--pred',
        path.join(resultsDir, `${label}_test_mcp_fuzzy.json`),
        '--output-dir',
        path.join(resultsDir, label),
      ]);
    }
    store = openStore(path.join(resultsDir, 'm3bench.sqlite'), { readonly: true });
    const runs = listRuns(store);
    runIds = { gt: runs.find((entry) => entry.modelLabel === 'replay-gt')!.runId, noisy: runs.find((entry) => entry.modelLabel === 'replay-noisy')!.runId };
    view = await startViewServer({ store, resultsDir, port: 0, logger: createLogger('error') });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    mock = await startMockLlm({ respond: liveModel() });
    held = await startHeldUpstream(mock.openAiBaseUrl);
  }, 600_000);
  afterAll(async () => {
    if (live && live.child.exitCode === null) live.child.kill();
    await held?.close();
    await mock?.close();
    await browser?.close();
    await view?.close();
    store?.close();
  });

  it('lists both runs and opens a run, then a task with its tool image', async () => {
    await page.goto(view.url);
    await page.waitForSelector(`tr[data-run="${runIds.noisy}"]`);
    expect(await page.locator('tbody tr').count()).toBe(2);
    await page.screenshot({ path: artifactPath('view-runs-1280.png'), fullPage: true });
    await page.click(`tr[data-run="${runIds.gt}"] a`);
    await page.waitForSelector('tr[data-task="L0041"]');
    expect(await page.locator('tbody tr').count()).toBe(taskIds.size);
    await page.click('tr[data-task="L0041"] a');
    await page.waitForSelector('#transcript img.tool-image');
    // The image is fetched from the viewer by tool-call id; polled from the test side (the CSP forbids eval).
    const image = page.locator('#transcript img.tool-image').first();
    const width = async () => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
    for (let tries = 0; tries < 100 && (await width()) === 0; tries += 1) await page.waitForTimeout(100);
    expect(await width()).toBeGreaterThan(0);
  });

  it("shows the noisy oracle's alignment with the evaluation output's counts", async () => {
    const results = readJson(path.join(resultsDir, 'replay-noisy', 'results_eval.json')) as {
      per_id: Array<{ id: string; details: { matches: Array<{ similarity: number }>; unmatched_gt_indices: number[]; unmatched_pred_indices: number[] } }>;
    };
    // The task of the noisy run with the most alignment defects: missed or extra calls if any.
    const score = [...results.per_id].sort(
      (a, b) =>
        b.details.unmatched_gt_indices.length +
        b.details.unmatched_pred_indices.length -
        (a.details.unmatched_gt_indices.length + a.details.unmatched_pred_indices.length),
    )[0]!;
    expect(score.details.unmatched_gt_indices.length + score.details.unmatched_pred_indices.length).toBeGreaterThan(0);
    await page.goto(`${view.url}#/task/${encodeURIComponent(runIds.noisy)}/${score.id}`);
    await page.waitForSelector('#alignment');
    expect(await page.getAttribute('#count-matched', 'data-value')).toBe(String(score.details.matches.length));
    expect(await page.getAttribute('#count-missed', 'data-value')).toBe(String(score.details.unmatched_gt_indices.length));
    expect(await page.getAttribute('#count-extra', 'data-value')).toBe(String(score.details.unmatched_pred_indices.length));
    expect(await page.locator('#alignment .call.missed').count()).toBe(score.details.unmatched_gt_indices.length);
    expect(await page.locator('#alignment .call.extra').count()).toBe(score.details.unmatched_pred_indices.length);
    expect(await page.locator('#alignment [data-strength="strong"]').count()).toBe(score.details.matches.filter((match) => match.similarity >= 0.8).length);
    await page.screenshot({ path: artifactPath('view-task-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.waitForSelector('#alignment');
    // At phone width the page must not scroll sideways (tables scroll inside their own box).
    expect(await page.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: artifactPath('view-task-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('filters the task table by status and sorts it', async () => {
    await page.goto(`${view.url}#/run/${encodeURIComponent(runIds.noisy)}`);
    await page.waitForSelector('#status-filter');
    const statuses = await page.locator('tbody tr [data-status]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-status')));
    expect(statuses).toHaveLength(taskIds.size);
    await page.selectOption('#status-filter', 'ok');
    await settled(page);
    expect(await page.locator('tbody tr').count()).toBe(statuses.filter((status) => status === 'ok').length);
    const options = await page.locator('#status-filter option').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('value')));
    for (const status of options.filter((value) => value !== 'all' && value !== 'ok')) {
      await page.selectOption('#status-filter', status);
      await settled(page);
      expect(await page.locator('tbody tr').count()).toBe(statuses.filter((entry) => entry === status).length);
    }
    await page.selectOption('#status-filter', 'all');
    await settled(page);
    await page.click('th[data-key="task"]');
    await settled(page);
    await page.click('th[data-key="task"]');
    await settled(page);
    const order = await page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-task')));
    expect(order).toEqual([...taskIds].sort().reverse());
  });

  it('compares the oracle with the noisy oracle: the paired difference of `m3 compare`, flips and per-task deltas', async () => {
    // Pass/fail by the success rule, as each run's pass@1 and `m3 compare` count it (src/stats).
    const [batchFile] = findBatchManifests(resultsDir).map((entry) => entry.file);
    const cells = loadBatchResults(batchFile as string).cells;
    const passedOf = (label: string) =>
      new Map([...(cells.find((cell) => cell.label === label)?.tasks ?? new Map())].map(([id, trials]) => [id, trials[0]?.passed === true]));
    const [oracle, noisy] = [passedOf('replay-gt'), passedOf('replay-noisy')];
    const broken = [...noisy]
      .filter(([id, passed]) => oracle.get(id) === true && !passed)
      .map(([id]) => id)
      .sort();
    expect(broken.length).toBeGreaterThan(0);
    // B - A with A = the oracle: `m3 compare B A` states the same difference.
    const expected = JSON.parse(await m3(['compare', `${resultsDir}#replay-noisy`, `${resultsDir}#replay-gt`, '--json'])) as {
      difference: { estimate: number; low: number; high: number };
      signTest: { pValue: number };
    };
    await page.goto(view.url);
    await page.waitForSelector('#compare-a');
    await page.selectOption('#compare-a', runIds.gt);
    await page.selectOption('#compare-b', runIds.noisy);
    await page.click('#compare-go');
    await page.waitForSelector('#flip-count');
    expect(await page.locator('tbody tr').count()).toBe(taskIds.size);
    const flipped = await page.locator('tbody tr[data-flip="broken"]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-task')).sort());
    expect(flipped).toEqual(broken);
    expect(await textOf(page, '#flip-count')).toContain(`${broken.length} broken`);
    const shown = async (name: string) => Number(await page.getAttribute('#paired-pass', `data-${name}`));
    expect(await shown('estimate')).toBeCloseTo(expected.difference.estimate, 9);
    expect(await shown('low')).toBeCloseTo(expected.difference.low, 9);
    expect(await shown('high')).toBeCloseTo(expected.difference.high, 9);
    expect(await shown('p')).toBeCloseTo(expected.signTest.pValue, 9);
    expect(expected.difference.estimate).toBeLessThan(0);
    expect(await textOf(page, '#paired-pass')).toContain(expected.difference.estimate.toFixed(3));
    await page.screenshot({ path: artifactPath('view-compare-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: artifactPath('view-compare-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows a run started after the runs page was opened, then follows it live, without a reload', async () => {
    const loads: string[] = [];
    page.on('load', () => loads.push(page.url()));
    await page.goto(`${view.url}#/`);
    await page.waitForSelector(`tr[data-run="${runIds.gt}"]`);
    const loadsAtOpen = loads.length;
    expect(await page.locator(`tr[data-run="${liveRunId}"]`).count()).toBe(0);
    live = await startLiveRun(dir, path.join(resultsDir, 'm3bench.sqlite'), held.url);
    // The idle runs page watches the run list; the child's run row appears in the open page.
    await page.waitForSelector(`tr[data-run="${liveRunId}"]`, { timeout: 180_000 });
    expect(loads.length).toBe(loadsAtOpen);
    expect(getRun(store, liveRunId)?.status, live.output()).toBe('running');
    await page.click(`tr[data-run="${liveRunId}"] a`);
    await page.waitForSelector('#task-count');
    const loadsBefore = loads.length;
    expect(await page.locator('#live').isHidden()).toBe(false);
    const firstCount = await page.locator('tbody tr').count();
    // Seen in flight: the model may answer now, and the page must follow the run to its end.
    held.release();
    // The finished badge only appears once the page has polled the run to its end.
    await page.waitForSelector('p.meta [data-status="finished"]', { timeout: 240_000 });
    expect(await page.locator('tbody tr').count()).toBe(liveTasks.length);
    expect(firstCount).toBeLessThan(liveTasks.length);
    expect(loads.length).toBe(loadsBefore);
    await page.waitForSelector('#live', { state: 'hidden' });
    const code = await live.exit;
    expect(code, live.output()).toBe(0);
  }, 420_000);

  it("filters the live run by fallback tier and shows each call's tier", async () => {
    await page.goto(`${view.url}#/run/${liveRunId}`);
    await page.waitForSelector('#tier-filter');
    const tiers = await page.locator('#tier-filter option').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('value')));
    const served = tiers.filter((tier) => tier !== 'all' && tier !== 'none');
    expect(served.length).toBeGreaterThan(0);
    const rowTiers = await page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-tiers') ?? ''));
    for (const tier of served) {
      await page.selectOption('#tier-filter', tier!);
      await settled(page);
      expect(await page.locator('tbody tr').count()).toBe(rowTiers.filter((entry) => entry.split(' ').includes(tier!)).length);
    }
    await page.selectOption('#tier-filter', 'none');
    await settled(page);
    expect(await page.locator('tbody tr').count()).toBe(rowTiers.filter((entry) => entry === '').length);
    await page.selectOption('#tier-filter', 'all');
    await settled(page);
    await page.selectOption('#mocked-filter', 'mocked');
    await settled(page);
    expect(await page.locator('tbody tr').count()).toBe(rowTiers.filter((entry) => entry !== '').length);
    await page.selectOption('#mocked-filter', 'all');
    await settled(page);
    await page.screenshot({ path: artifactPath('view-run-1280.png'), fullPage: true });
    await page.click(`tbody tr[data-task="${liveTasks[0]}"] a`);
    await page.waitForSelector('#transcript [data-tool-call]');
    expect(await page.locator(`#transcript [data-tier="${served[0]}"]`).count()).toBeGreaterThan(0);
    expect(await textOf(page, '#final-answer')).toContain('live answer');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${view.url}#/run/${liveRunId}`);
    await page.waitForSelector('#tier-filter');
    expect(await page.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: artifactPath('view-run-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
