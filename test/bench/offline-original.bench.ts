// npm run bench:offline [-- --baseline <checkout>] — the offline run of the whole original set
// (the one test/e2e/original-offline.test.ts makes: oracle over the 208 GT tasks, fallback on,
// simulator off, placeholder images, concurrency 8), timed from the outside: wall time, when
// every server was up, the CPU of the whole process tree (the children this benchmark reaped)
// and per process (sampled from /proc every 500 ms, so a process's last half second is missed),
// the tool calls per server and the CPU per OCR call. With --baseline, the same run from another
// checkout (with its own node_modules and, for a like-for-like figure, its own dist/ build) goes
// first, then this one: before and after side by side in one run, each with the machine load.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

async function measure(label: string, root: string, gtFile: string): Promise<Measured> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'm3-bench-offline-'));
  const mockDir = path.join(work, 'mock_runtime');
  cpSync(path.join(root, 'tools', 'mock_runtime', 'fixtures'), path.join(mockDir, 'fixtures'), { recursive: true });
  const results = path.join(work, 'results');
  const args = ['--import', 'tsx', 'src/cli/main.ts', 'run', '--tasks', gtFile, '--gt', gtFile, '--results-dir', results];
  args.push('--placeholder-images', '--concurrency', '8', '--run-id', 'offline', '--startup-timeout', '600');
  const env = { M3_MOCK_FALLBACK: '1', M3_MOCK_LLM: '0', M3_MOCK_ALLOW: '*', M3_MOCK_DIR: mockDir, M3_WORKSPACE_MODE: 'isolated' };
  const loadBefore = loadLine();
  const cpuBefore = reapedChildrenCpuS();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env, CI: '1', M3_NETWORK_GUARD: 'loopback', M3_MAX_TASK_REQUEUE: '0', M3_TOOL_CALL_TIMEOUT: '600' },
  });
  let serversUpS: number | undefined;
  let stderr = '';
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
    const predictions = JSON.parse(readFileSync(path.join(results, 'replay-gt_test_mcp_fuzzy.json'), 'utf8')) as Array<{
      steps: Array<{ calls: Array<{ name: string; fallback?: { tier: string } }> }>;
    }>;
    for (const call of predictions.flatMap((record) => record.steps.flatMap((step) => step.calls))) {
      const server = call.name.split('/')[0] ?? call.name;
      callsPerServer.set(server, (callsPerServer.get(server) ?? 0) + 1);
      const where = call.fallback && `${server} ${call.fallback.tier}`;
      if (where) mockedPerServer.set(where, (mockedPerServer.get(where) ?? 0) + 1);
    }
  } catch (error) {
    stderr += `\n(no prediction file: ${(error as Error).message})`;
  }
  if (exitCode !== 0) process.stderr.write(`${label}: m3 run exited with ${exitCode}\n${stderr.slice(-3000)}\n`);
  rmSync(work, { recursive: true, force: true });
  const treeCpuS = reapedChildrenCpuS() - cpuBefore;
  return { label, exitCode, wallS, serversUpS, treeCpuS, perProcess, callsPerServer, mockedPerServer, loadBefore, loadAfter: loadLine() };
}

function report(runs: Measured[]): void {
  const cell = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(1));
  const names = [...new Set(runs.flatMap((run) => [...run.perProcess.keys()]))];
  const top = names.sort((a, b) => (runs.at(-1)?.perProcess.get(b) ?? 0) - (runs.at(-1)?.perProcess.get(a) ?? 0));
  const lines = [`offline original run (208 tasks, oracle, fallback on, placeholder images, concurrency 8): ${runs.map((run) => run.label).join(' | ')}`];
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
const runs: Measured[] = [];
if (baseline) runs.push(await measure('baseline', path.resolve(baseline), gtFile));
runs.push(await measure('this checkout', repoRoot, gtFile));
report(runs);
