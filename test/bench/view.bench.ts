// `npm run bench:view`: how fast a 10,000-episode run opens in the viewer, today's page beside
// the page before search and paging (the run page of commit eaa5356, read from git into a temp
// folder and served by the same server, whose /api/runs/<id> route it calls). The run is built
// by test/view/run-builder.ts (store, batch manifest, real step evaluation). Per page: the API
// answer's time and size (the new page's first request, with its rows not yet indexed, and a
// second one, a filter change on the indexed rows), and in Chromium the time from navigation to
// the first task row painted, and the page's height. Then the runs list (/api/runs): its first
// answer (cold: the bootstrap intervals are not computed yet, the answer says "computing" and a
// worker thread computes them, src/view/interval-jobs.ts), the time until the intervals are ready,
// and an answer after that (warm: the kept intervals). M3_BENCH_EPISODES=<n> changes the size.
// Not a test: it prints a table, with the machine load.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../src/log/logger.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { launchBrowser } from '../demo/browser.js';
import { repoRoot } from '../support/shared-assets.js';
import { buildRun } from '../view/run-builder.js';

const earlierPage = 'eaa5356';
const episodes = Number(process.env.M3_BENCH_EPISODES ?? 10_000);

/** The viewer's public files as they were at `commit`. */
function checkoutPage(commit: string, into: string): string {
  mkdirSync(into, { recursive: true });
  const listing = execFileSync('git', ['ls-tree', '--name-only', commit, 'src/view/public/'], { cwd: repoRoot, encoding: 'utf8' });
  for (const file of listing.split('\n').filter(Boolean)) {
    writeFileSync(path.join(into, path.basename(file)), execFileSync('git', ['show', `${commit}:${file}`], { cwd: repoRoot }));
  }
  return into;
}

async function timeApi(url: URL): Promise<{ ms: number; bytes: number }> {
  const start = performance.now();
  const response = await fetch(url);
  const body = await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return { ms: performance.now() - start, bytes: body.byteLength };
}

async function timePaint(view: ViewServer, runId: string): Promise<{ ms: number; height: number; rows: number }> {
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const start = performance.now();
    await page.goto(new URL(`#/run/${runId}`, view.url).href);
    await page.waitForSelector('tbody tr[data-task]', { timeout: 300_000 });
    const ms = performance.now() - start;
    const height = await page.locator('html').evaluate((html) => html.scrollHeight);
    return { ms, height, rows: await page.locator('tbody tr[data-task]').count() };
  } finally {
    await browser.close();
  }
}

/** The runs list cold (intervals not computed yet), the background computation, and the list warm. */
async function timeRunsList(view: ViewServer, runId: string) {
  const cold = await timeApi(new URL('/api/runs', view.url));
  const coldState = ((await (await fetch(new URL('/api/runs', view.url))).json()) as { runs: Array<{ intervals: { state?: string } }> }).runs[0]?.intervals
    .state;
  const computed = await intervalsReady(view, runId);
  return { cold, coldState: coldState ?? 'no state', computed, warm: await timeApi(new URL('/api/runs', view.url)) };
}

/** Asks for the run's intervals until the server's background computation has them; the time it took. */
async function intervalsReady(view: ViewServer, runId: string): Promise<number> {
  const start = performance.now();
  for (;;) {
    const answer = (await (await fetch(new URL(`/api/runs/${runId}/intervals`, view.url))).json()) as { state?: string; missing?: string };
    if (answer.missing) throw new Error(`intervals: ${answer.missing}`);
    if (answer.state !== 'computing') return performance.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const size = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-bench-view-'));
  const logger = createLogger('error');
  try {
    const buildStart = performance.now();
    const built = await buildRun(dir, episodes, 'bench-run');
    process.stdout.write(`built a ${episodes}-episode run in ${seconds(performance.now() - buildStart)} (store, batch manifest, step evaluation)\n`);
    const sources = { store: built.store, resultsDir: built.resultsDir, port: 0, logger };
    const today = await startViewServer(sources);
    const before = await startViewServer({ ...sources, publicDir: checkoutPage(earlierPage, path.join(dir, 'earlier-page')) });
    try {
      const runsList = await timeRunsList(today, built.runId);
      const newCold = await timeApi(new URL(`/api/runs/${built.runId}/tasks?limit=100`, today.url));
      const newWarm = await timeApi(new URL(`/api/runs/${built.runId}/tasks?limit=100&outcome=fail`, today.url));
      // The earlier page reads the intervals from /api/runs/<id> as ready figures: its server computes
      // them first (in the background, as today's does), so its times are of the page and its rows.
      await intervalsReady(before, built.runId);
      const old = await timeApi(new URL(`/api/runs/${built.runId}`, before.url));
      const paintNew = await timePaint(today, built.runId);
      const paintOld = await timePaint(before, built.runId);
      const lines = [
        `run page of a ${episodes}-episode run (load average ${loadavg()[0]?.toFixed(1)}; times include the API call)`,
        `page                          API answer                 first task row painted   rows drawn   page height`,
        `before (${earlierPage}, all rows)   ${seconds(old.ms)} (${size(old.bytes)})`.padEnd(57) +
          `${seconds(paintOld.ms)}`.padEnd(25) +
          `${paintOld.rows}`.padEnd(13) +
          `${paintOld.height} px`,
        `today (search, paging)        ${seconds(newCold.ms)} (${size(newCold.bytes)}) first,`.padEnd(57) +
          `${seconds(paintNew.ms)}`.padEnd(25) +
          `${paintNew.rows}`.padEnd(13) +
          `${paintNew.height} px`,
        `                              ${seconds(newWarm.ms)} (${size(newWarm.bytes)}) a filter change`,
        `(the earlier page's API time is with the run's intervals already kept; before them, its route computed them on the request)`,
        `runs list (/api/runs, load average ${loadavg()[0]?.toFixed(1)})`,
        `  cold (intervals not computed yet)   ${seconds(runsList.cold.ms)} (${size(runsList.cold.bytes)}), intervals "${runsList.coldState}"`,
        `  intervals computed in the background in ${seconds(runsList.computed)} (worker thread; the server answered meanwhile)`,
        `  warm (kept intervals)               ${seconds(runsList.warm.ms)} (${size(runsList.warm.bytes)})`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    } finally {
      await today.close();
      await before.close();
      built.store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
