// The worker thread behind src/view/interval-jobs.ts: computes a run's bootstrap intervals
// (cell-stats.ts, as `m3 summary` does) off the server's event loop, one job at a time. A 10,000-task
// cell takes minutes of CPU on a loaded machine; the viewer keeps answering meanwhile.
import { parentPort } from 'node:worker_threads';
import { z } from 'zod';
import { runIntervals } from './cell-stats.js';

const jobSchema = z.object({ id: z.number().int(), resultsDir: z.string(), runId: z.string() });

const port = parentPort;
if (!port) throw new Error('src/view/interval-worker.ts runs as a worker thread of the run viewer');
port.on('message', (message: unknown) => {
  const job = jobSchema.parse(message);
  try {
    port.postMessage({ id: job.id, value: runIntervals(job.resultsDir, job.runId) });
  } catch (error) {
    port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
