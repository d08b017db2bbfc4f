// npm run bench:offline [-- --built] [-- --baseline <checkout>] — the README's offline recipe,
// exactly as the README writes it (the command is parsed from README.md: test/support/readme-offline.ts), in a
// fresh copy of the checkout, with no M3_* switch of ours and, where `unshare -rn` works, no
// network at all (a network namespace with only loopback; otherwise the machine's own network,
// said in the output). Timed from the outside: wall time, when every server was up, the CPU of
// the whole process tree (the children this benchmark reaped) and per process (sampled from
// /proc every 500 ms, so a process's last half second is missed), the tool calls per server and
// the CPU per OCR call. As written the copy has no dist/, so the servers run from source through
// tsx; with --built, `npm run build` runs in the copy first (not timed) and the recipe, unchanged,
// then starts the servers from dist/. With --baseline, the same recipe (that checkout's README) from another
// checkout with its own node_modules goes first, then this one: before and after side by side,
// each with the machine load.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { canRunWithoutNetwork, freshCopy, printedPredictionFile, readmeOfflineCommand, startRecipe } from '../support/readme-offline.js';
import { repoRoot, sharedDataDir } from '../support/shared-assets.js';
import { loadLine } from './bench-support.js';

const ticksPerSecond = 100;

interface ProcessCpu {
  name: string;
  cpuS: number;
}

/** utime + stime (s) of every live process in process group `group`, by pid. */
function sampleGroup(group: number, into: Map<number, ProcessCpu>): void {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== group) continue;
      const cpuS = (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
      const known = into.get(Number(entry));
      const name = known?.name ?? processName(readFileSync(`/proc/${entry}/cmdline`, 'utf8'));
      into.set(Number(entry), { name, cpuS });
    } catch {
      // the process ended between the listing and the read
    }
  }
}

function processName(cmdline: string): string {
  const server = /servers\/([\w-]+)\/index\.[jt]s/.exec(cmdline);
  if (server) return `server ${server[1]}`;
  if (cmdline.includes('src/cli/main')) return 'm3 run (host)';
  return path.basename(cmdline.split('\0')[0] ?? 'other');
}

/** CPU (s) of the children this process has waited for, from /proc/self/stat. */
function reapedChildrenCpuS(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / ticksPerSecond;
}

interface Measured {
  label: string;
  /** The README's command text this run executed. */
  command: string;
  exitCode: number | null;
  wallS: number;
  serversUpS?: number;
  treeCpuS: number;
  perProcess: Map<string, number>;
  callsPerServer: Map<string, number>;
  /** "<server> <tier>" → calls the fallback layer answered. */
  mockedPerServer: Map<string, number>;
  loadBefore: string;
  loadAfter: string;
}

/** Tool calls per server and fallback calls per server and tier, from the prediction file. */
function countCalls(file: string, callsPerServer: Map<string, number>, mockedPerServer: Map<string, number>): void {
  const predictions = JSON.parse(readFileSync(file, 'utf8')) as Array<{ steps: Array<{ calls: Array<{ name: string; fallback?: { tier: string } }> }> }>;
  for (const call of predictions.flatMap((record) => record.steps.flatMap((step) => step.calls))) {
    const server = call.name.split('/')[0] ?? call.name;
    callsPerServer.set(server, (callsPerServer.get(server) ?? 0) + 1);
    const where = call.fallback && `${server} ${call.fallback.tier}`;
    if (where) mockedPerServer.set(where, (mockedPerServer.get(where) ?? 0) + 1);
  }
}

async function measure(label: string, root: string, gtFile: string, offline: boolean, built: boolean): Promise<Measured> {
  const recipe = readmeOfflineCommand(readFileSync(path.join(root, 'README.md'), 'utf8'));
  const copy = freshCopy(recipe, gtFile, root);
  if (built) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: copy, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`npm run build failed in the copy of ${root}:\n${build.stdout.slice(-2000)}${build.stderr.slice(-2000)}`);
  }
  const loadBefore = loadLine();
  const cpuBefore = reapedChildrenCpuS();
  const started = performance.now();
  const child = startRecipe(recipe, copy, offline);
  let serversUpS: number | undefined;
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
    if (serversUpS === undefined && /replay:gt over/.test(stderr)) serversUpS = (performance.now() - started) / 1000;
  });
  const processes = new Map<number, ProcessCpu>();
  const timer = setInterval(() => sampleGroup(child.pid ?? -1, processes), 500);
  const exitCode = await new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  clearInterval(timer);
  const wallS = (performance.now() - started) / 1000;
  const perProcess = new Map<string, number>();
  for (const { name, cpuS } of processes.values()) perProcess.set(name, (perProcess.get(name) ?? 0) + cpuS);
  const callsPerServer = new Map<string, number>();
  const mockedPerServer = new Map<string, number>();
  try {
    countCalls(printedPredictionFile(stdout, copy), callsPerServer, mockedPerServer);
  } catch (error) {
    stderr += `\n(no prediction file: ${(error as Error).message})`;
  }
  if (exitCode !== 0) process.stderr.write(`${label}: m3 run exited with ${exitCode}\n${stderr.slice(-3000)}\n`);
  rmSync(copy, { recursive: true, force: true });
  const treeCpuS = reapedChildrenCpuS() - cpuBefore;
  return { label, command: recipe.text, exitCode, wallS, serversUpS, treeCpuS, perProcess, callsPerServer, mockedPerServer, loadBefore, loadAfter: loadLine() };
}

function report(runs: Measured[], offline: boolean, built: boolean): void {
  const cell = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(1));
  const names = [...new Set(runs.flatMap((run) => [...run.perProcess.keys()]))];
  const top = names.sort((a, b) => (runs.at(-1)?.perProcess.get(b) ?? 0) - (runs.at(-1)?.perProcess.get(a) ?? 0));
  const network = offline
    ? 'no network (unshare -rn: a network namespace with only loopback)'
    : "the machine's own network (unshare -rn is not available here)";
  const servers = built ? 'after `npm run build` in the copy (servers from dist/)' : 'no build (servers from source through tsx)';
  const lines = [`README offline recipe, as written, in a fresh copy, ${servers}, ${network}: ${runs.map((run) => run.label).join(' | ')}`];
  for (const run of runs) lines.push(`  ${run.label}: ${run.command}`);
  const row = (label: string, value: (run: Measured) => string) => lines.push(`  ${label.padEnd(34)}${runs.map((run) => value(run).padStart(14)).join('')}`);
  row('', (run) => run.label);
  row('exit code', (run) => String(run.exitCode));
  row('wall (s)', (run) => cell(run.wallS));
  row('all servers up after (s)', (run) => cell(run.serversUpS));
  row('CPU of the process tree (s)', (run) => cell(run.treeCpuS));
  for (const name of top.slice(0, 8)) row(`  CPU ${name} (s)`, (run) => cell(run.perProcess.get(name)));
  const rest = (run: Measured) => [...run.perProcess].filter(([name]) => !top.slice(0, 8).includes(name)).reduce((sum, [, cpu]) => sum + cpu, 0);
  row('  CPU of the other processes (s)', (run) => cell(rest(run)));
  row('OCR calls', (run) => String(run.callsPerServer.get('ocr') ?? 0));
  row('OCR server CPU per call (s)', (run) => cell((run.perProcess.get('server ocr') ?? 0) / Math.max(1, run.callsPerServer.get('ocr') ?? 0)));
  row('tool calls', (run) => String([...run.callsPerServer.values()].reduce((sum, count) => sum + count, 0)));
  row('of them served by the fallback layer', (run) => String([...run.mockedPerServer.values()].reduce((sum, count) => sum + count, 0)));
  for (const run of runs) lines.push(`  ${run.label}: ${run.loadBefore} before, ${run.loadAfter} after`);
  const calls = [...(runs.at(-1)?.callsPerServer ?? new Map<string, number>())].sort((a, b) => b[1] - a[1]);
  lines.push(`  calls per server (${runs.at(-1)?.label}): ${calls.map(([server, count]) => `${server} ${count}`).join(', ')}`);
  for (const run of runs) {
    const mocked = [...run.mockedPerServer].sort(([a], [b]) => a.localeCompare(b));
    lines.push(`  fallback calls per server and tier (${run.label}): ${mocked.map(([where, count]) => `${where} ${count}`).join(', ')}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

const dataDir = sharedDataDir();
if (!dataDir) throw new Error('bench:offline needs the shared reference data (../shared/data/m3bench/test_mcp_GT.json)');
const gtFile = path.join(dataDir, 'test_mcp_GT.json');
const baselineAt = process.argv.indexOf('--baseline');
const baseline = baselineAt >= 0 ? process.argv[baselineAt + 1] : undefined;
const offline = canRunWithoutNetwork();
const built = process.argv.includes('--built');
const runs: Measured[] = [];
if (baseline) runs.push(await measure('baseline', path.resolve(baseline), gtFile, offline, built));
runs.push(await measure('this checkout', repoRoot, gtFile, offline, built));
report(runs, offline, built);
