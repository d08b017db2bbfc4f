// The run viewer's bootstrap intervals, computed once per version of a run's files and kept, off
// the request path: a request never runs the bootstrap (minutes of CPU for a 10,000-task cell on a
// loaded machine). It answers at once with one of
//   { missing }                             the run has no batch cell to compute from (and why)
//   { state: 'ready', computedAt, ... }      the intervals of the files as they are now
//   { state: 'computing', startedAt, outdated } a worker thread is computing them; `outdated` is the
//                                            last figure, of files that have changed since (or null),
//                                            marked `outdated: true` so no page shows it as current
// The version of the files is cell-stats.ts's fingerprint (path, mtime, size of the manifest, each
// trial's predictions and step evaluation). One worker thread runs one job at a time (the machine
// has few cores and the server must stay responsive); one job per run is in flight at most.
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import type { Logger } from '../log/logger.js';
import { intervalInputs, type runIntervals } from './cell-stats.js';

type Computed = ReturnType<typeof runIntervals>;
type Intervals = Exclude<Computed, { missing: string }>;
type ReadyIntervals = Intervals & { state: 'ready'; computedAt: string };
type IntervalsAnswer = { missing: string } | ReadyIntervals | { state: 'computing'; startedAt: string; outdated: (ReadyIntervals & { outdated: true }) | null };

export interface IntervalJobs {
  /** The run's intervals as far as they are known now; starts their computation when they are not. */
  intervalsOf(resultsDir: string, runId: string): IntervalsAnswer;
  close(): Promise<void>;
}

const replySchema = z.object({ id: z.number().int(), value: z.unknown().optional(), error: z.string().optional() });

interface Job {
  key: string;
  signature: string;
  startedAt: string;
}

/** The worker thread: dist/ runs the compiled entry; from source (tsx, vitest) tsx's API loads the TypeScript one. */
function startWorker(): Worker {
  const self = fileURLToPath(import.meta.url);
  if (self.endsWith('.js')) return new Worker(new URL('./interval-worker.js', import.meta.url));
  const entry = new URL('./interval-worker.ts', import.meta.url).href;
  // tsx's ESM API entry (its "import" export; the CommonJS one sits beside it).
  const api =
    import.meta.resolve?.('tsx/esm/api') ??
    pathToFileURL(
      createRequire(import.meta.url)
        .resolve('tsx/esm/api')
        .replace(/\.cjs$/, '.mjs'),
    ).href;
  return new Worker(`import(${JSON.stringify(api)}).then((api) => api.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`, { eval: true });
}

export function createIntervalJobs(logger?: Logger): IntervalJobs {
  const results = new Map<string, { signature: string; answer: { missing: string } | ReadyIntervals }>();
  const inFlight = new Map<string, Job>();
  const byId = new Map<number, Job>();
  let worker: Worker | undefined;
  let nextId = 1;

  const settle = (job: Job, answer: { missing: string } | ReadyIntervals) => {
    results.set(job.key, { signature: job.signature, answer });
    inFlight.delete(job.key);
  };

  const failAll = (reason: string) => {
    logger?.error(`view: the interval worker stopped: ${reason}`);
    for (const job of byId.values()) settle(job, { missing: `the bootstrap could not be computed: ${reason}` });
    byId.clear();
    worker = undefined;
  };

  const workerOf = (): Worker => {
    if (worker) return worker;
    const started = startWorker();
    started.unref();
    started.on('message', (message: unknown) => {
      const reply = replySchema.parse(message);
      const job = byId.get(reply.id);
      if (!job) return;
      byId.delete(reply.id);
      const value = reply.value as Computed | undefined;
      if (reply.error !== undefined || !value) settle(job, { missing: `the bootstrap could not be computed: ${reply.error ?? 'no answer'}` });
      else settle(job, value.missing !== undefined ? { missing: value.missing } : { ...value, state: 'ready', computedAt: new Date().toISOString() });
    });
    started.on('error', (error) => failAll(error.message));
    started.on('exit', (code) => {
      if (worker === started) failAll(`exit code ${code}`);
    });
    worker = started;
    return started;
  };

  return {
    intervalsOf(resultsDir, runId) {
      const inputs = intervalInputs(resultsDir, runId);
      if ('missing' in inputs) return inputs;
      const { key, signature } = inputs.found;
      const known = results.get(key);
      if (known?.signature === signature) return known.answer;
      let job = inFlight.get(key);
      if (!job) {
        job = { key, signature, startedAt: new Date().toISOString() };
        const id = nextId++;
        inFlight.set(key, job);
        byId.set(id, job);
        workerOf().postMessage({ id, resultsDir, runId });
      }
      const last = known && 'state' in known.answer ? known.answer : null;
      return { state: 'computing', startedAt: job.startedAt, outdated: last ? { ...last, outdated: true } : null };
    },
    async close() {
      const running = worker;
      worker = undefined;
      await running?.terminate();
    },
  };
}
