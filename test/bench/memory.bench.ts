// npm run bench:memory — does the host stay flat over a long run? (not a test; asserts nothing)
// 2,000 tasks (M3_BENCH_TASKS) at concurrency 32 (M3_BENCH_CONCURRENCY) through the runner's
// batch with a scripted model that answers at once, the real math server over MCP stdio, a real
// SQLite store and prediction file, and the listeners `m3 run` attaches (LLM stats, progress,
// prompt hashes). Before each sample the heap is collected twice (node --expose-gc); samples at
// the start (after a 200-task warm-up in its own run), every 500 finished tasks and at the end.
// Growth per task is printed start→end and between the first and last mid-run sample (both with
// the same number of tasks in flight). M3_BENCH_HEAP_SNAPSHOTS=<dir> also writes a heap snapshot
// at each sample, for comparing what the tasks left behind. On Linux each sample also splits the
// RSS by mapping (/proc/self/smaps): the malloc heap (native allocations such as SQLite's page
// cache), anonymous mappings (V8's heap pages, large allocations) and the rest (code, files).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { LlmStats } from '../../src/runner/llm-stats.js';
import { createProgress } from '../../src/log/progress.js';
import { benchTasks, loadLine, openBenchBatch, runBenchBatch, scriptedDriver, startMathHost } from './bench-support.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('bench:memory needs node --expose-gc (npm run bench:memory passes it)');

const tasks = Number(process.env.M3_BENCH_TASKS ?? 2000);
const concurrency = Number(process.env.M3_BENCH_CONCURRENCY ?? 32);
const every = 500;
const snapshotDir = process.env.M3_BENCH_HEAP_SNAPSHOTS;

interface Sample {
  label: string;
  done: number;
  rss: number;
  heapUsed: number;
  external: number;
  /** RSS of the malloc heap and of anonymous mappings, in bytes (Linux only). */
  mapped?: { malloc: number; anonymous: number };
}

/** Sums the Rss lines of /proc/self/smaps for the `[heap]` mapping and for mappings with no name. */
function rssByMapping(): Sample['mapped'] {
  if (!existsSync('/proc/self/smaps')) return undefined;
  const totals = { malloc: 0, anonymous: 0 };
  let kind: keyof typeof totals | undefined;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) kind = mapping[1] === '[heap]' ? 'malloc' : mapping[1] === '' ? 'anonymous' : undefined;
    const rss = kind && /^Rss:\s+(\d+) kB/.exec(line);
    if (kind && rss) totals[kind] += Number(rss[1]) * 1024;
  }
  return totals;
}

function sample(label: string, done: number): Sample {
  gc?.();
  gc?.();
  const usage = process.memoryUsage();
  if (snapshotDir) writeHeapSnapshot(path.join(snapshotDir, `memory-${String(done).padStart(5, '0')}.heapsnapshot`));
  const mapped = rssByMapping();
  return { label, done, rss: usage.rss, heapUsed: usage.heapUsed, external: usage.external, ...(mapped ? { mapped } : {}) };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1).padStart(7)} MB`;
const kbPerTask = (from: Sample, to: Sample, key: 'rss' | 'heapUsed') => (to[key] - from[key]) / 1024 / Math.max(1, to.done - from.done);

/** The listeners runTrial (src/runner/run-trial.ts) attaches, with the progress lines discarded. */
function trialListeners(samples: Sample[]) {
  const stats = new LlmStats(undefined, 0);
  const promptHashes = new Map<string, string>();
  const sink = { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream;
  const progress = createProgress('memory', sink, {});
  let lastSampled = 0;
  return {
    stats,
    progress,
    onEvent: (event: Parameters<LlmStats['observe']>[0]) => stats.observe(event),
    onProgress: (
      snapshot: {
        done: number;
        total: number;
        failedModel: number;
        failedInfra: number;
        running: number;
        usage: { inputTokens: number; outputTokens: number };
      },
      finished?: { taskId: string; outcome: { ok: boolean; promptHash?: string } },
    ) => {
      if (finished?.outcome.promptHash) promptHashes.set(finished.taskId, finished.outcome.promptHash);
      progress.update({ ...snapshot, tokens: snapshot.usage.inputTokens + snapshot.usage.outputTokens }, finished ? `${finished.taskId} ok` : undefined);
      if (finished && snapshot.done % every === 0 && snapshot.done < snapshot.total && snapshot.done !== lastSampled) {
        lastSampled = snapshot.done;
        samples.push(sample(`after ${snapshot.done}`, snapshot.done));
      }
    },
  };
}

const host = await startMathHost();
const driver = scriptedDriver(0);
try {
  const warm = openBenchBatch('memory-warmup', driver.id);
  await runBenchBatch(warm, host, driver, benchTasks(200, 'w'), { concurrency });
  warm.store.close();

  const batch = openBenchBatch('memory', driver.id);
  const samples: Sample[] = [sample('start', 0)];
  const listeners = trialListeners(samples);
  const started = performance.now();
  const result = await runBenchBatch(batch, host, driver, benchTasks(tasks), {
    concurrency,
    onEvent: listeners.onEvent,
    onProgress: listeners.onProgress,
  });
  listeners.progress.stop();
  const seconds = (performance.now() - started) / 1000;
  samples.push(sample('end', result.progress.done));
  batch.store.close();

  process.stdout.write(`host memory over ${tasks} tasks at concurrency ${concurrency} (scripted model, math server over MCP stdio, SQLite store)\n`);
  process.stdout.write(
    `  ${result.progress.done} done, ${result.progress.failedModel + result.progress.failedInfra} failed, ${listeners.stats.counters.toolCalls} tool calls, ${seconds.toFixed(1)} s\n`,
  );
  for (const point of samples) {
    const mapped = point.mapped ? `  (malloc heap ${mb(point.mapped.malloc)}, anonymous ${mb(point.mapped.anonymous)})` : '';
    process.stdout.write(`  ${point.label.padEnd(11)} rss ${mb(point.rss)}  heap used ${mb(point.heapUsed)}  external ${mb(point.external)}${mapped}\n`);
  }
  const first = samples[0] as Sample;
  const last = samples[samples.length - 1] as Sample;
  const mid = samples.filter((point) => point.label.startsWith('after'));
  process.stdout.write(
    `  growth per task, start → end      : rss ${kbPerTask(first, last, 'rss').toFixed(2)} KB, heap ${kbPerTask(first, last, 'heapUsed').toFixed(2)} KB (goal rss <= 5 KB)\n`,
  );
  if (mid.length >= 2) {
    const [from, to] = [mid[0] as Sample, mid[mid.length - 1] as Sample];
    process.stdout.write(
      `  growth per task, ${from.label} → ${to.label}: rss ${kbPerTask(from, to, 'rss').toFixed(2)} KB, heap ${kbPerTask(from, to, 'heapUsed').toFixed(2)} KB\n`,
    );
  }
  process.stdout.write(`  ${loadLine()}\n`);
} finally {
  await host.close();
}
