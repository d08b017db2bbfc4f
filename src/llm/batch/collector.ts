// The collector behind `m3 run --batch`: it holds the requests the concurrently running episodes
// make, submits them as one vendor batch job when every running episode is waiting on the model
// (`maxSize` requests queued) or when no request has arrived for `windowMs`, polls the job with
// backoff, and resolves each episode's pending call with its result. A request the job did not
// answer (an errored line, an expired or failed job, a submit the vendor refused) goes to the
// ordinary path: the synchronous driver. Every job and request is written to the ledger (the run
// store) before polling starts, so a process killed while a job is pending can be resumed: the
// same request (same key) then waits for that job instead of being sent again.
import { sleep } from '../../core/sleep.js';
import type { Usage } from '../../core/usage.js';
import { addUsage, emptyUsage } from '../../core/usage.js';
import type { GenerateOptions, GenerateRequest, GenerateResponse, ModelDriver } from '../types.js';
import type { BatchBackend, BatchItemResult, BatchJobState } from './types.js';

/** Where jobs are remembered across processes (the run store: src/store/provider-batches.ts). */
export interface BatchLedger {
  recorded(vendorBatchId: string, requests: ReadonlyArray<{ customId: string; key: string }>): Promise<void>;
  updated(vendorBatchId: string, state: BatchJobState, detail: string): void;
  settled(vendorBatchId: string, customId: string, outcome: 'answered' | 'fallback'): void;
  /** Requests of jobs an earlier process submitted and never collected. */
  pending(): ReadonlyArray<{ vendorBatchId: string; customId: string; key: string }>;
}

export interface BatchCollectorOptions {
  /** Submit when this many requests wait (the number of episodes that can run at once). */
  maxSize: number;
  /** Submit when no request has arrived for this long. */
  windowMs: number;
  /** First poll after this long; each pending poll doubles it up to `pollMaxMs`. */
  pollMs: number;
  pollMaxMs: number;
  /** The request key (the response cache's: src/llm/response-cache-key.ts). */
  keyOf: (request: GenerateRequest) => string;
  /** A job's state changed (the progress line). */
  onState?: (line: string) => void;
  /** Something went to the ordinary path, and why. */
  onFallback?: (line: string) => void;
}

/** What the run manifest records of a run's batch use. */
export interface BatchCounts {
  /** Jobs submitted by this process. */
  jobs: number;
  /** Requests put into those jobs. */
  submitted: number;
  /** Requests that waited for a job submitted before: by an earlier process (`--resume`), or for an episode that stopped waiting. */
  resumed: number;
  /** Responses that came from a batch job. */
  answered: number;
  /** Requests sent on the ordinary path after their job did not answer them. */
  fallback: number;
  /** Usage of the batch-answered responses (billed at the batch price). */
  answeredUsage: Usage;
}

interface Waiter {
  key: string;
  request: GenerateRequest;
  options: GenerateOptions | undefined;
  startedAt: number;
  resolve: (response: GenerateResponse) => void;
  reject: (error: unknown) => void;
  done: boolean;
  /** The job and custom id it waits on, once submitted. */
  slot?: { vendorBatchId: string; customId: string };
}

interface Job {
  vendorBatchId: string;
  waiters: Map<string, Waiter>;
  polling: boolean;
  /** Set once collected, for a resumed request that attaches after the job ended. */
  results?: Map<string, BatchItemResult>;
}

const maxPollFailures = 5;

export class BatchCollector {
  readonly counts: BatchCounts = { jobs: 0, submitted: 0, resumed: 0, answered: 0, fallback: 0, answeredUsage: emptyUsage() };
  private queue: Array<{ customId: string; waiter: Waiter }> = [];
  private timer: NodeJS.Timeout | undefined;
  private sequence = 0;
  private readonly jobs = new Map<string, Job>();
  private readonly resumable = new Map<string, Array<{ vendorBatchId: string; customId: string }>>();
  /** Keys whose job is being created: ends once the job's slots are attached or resumable. */
  private readonly submitting = new Map<string, Promise<void>>();

  constructor(
    private readonly backend: BatchBackend,
    private readonly driver: ModelDriver,
    private readonly ledger: BatchLedger,
    private readonly options: BatchCollectorOptions,
  ) {
    for (const entry of ledger.pending()) {
      const list = this.resumable.get(entry.key) ?? [];
      list.push({ vendorBatchId: entry.vendorBatchId, customId: entry.customId });
      this.resumable.set(entry.key, list);
    }
  }

  /** The driver with this collector in front of it; everything but `generate` is the driver's own. */
  wrap(): ModelDriver {
    const wrapped = Object.create(this.driver) as ModelDriver;
    Object.defineProperty(wrapped, 'generate', { value: (request: GenerateRequest, options?: GenerateOptions) => this.generate(request, options) });
    return wrapped;
  }

  generate(request: GenerateRequest, options?: GenerateOptions): Promise<GenerateResponse> {
    return new Promise<GenerateResponse>((resolve, reject) => {
      const waiter: Waiter = { key: this.options.keyOf(request), request, options, startedAt: Date.now(), resolve, reject, done: false };
      const signal = options?.signal;
      if (signal) {
        if (signal.aborted) return reject(signal.reason);
        signal.addEventListener('abort', () => this.abandon(waiter, signal.reason), { once: true });
      }
      // The same request may sit in a job still being created, left by an episode that stopped
      // waiting meanwhile: its slot is known once the job is, so look again then.
      const creating = this.submitting.get(waiter.key);
      if (creating) void creating.then(() => this.enqueue(waiter));
      else this.enqueue(waiter);
    });
  }

  /** Attaches the waiter to a job that already holds its request, else queues it for the next job. */
  private enqueue(waiter: Waiter): void {
    if (waiter.done) return;
    const earlier = this.resumable.get(waiter.key)?.shift();
    if (earlier) {
      this.counts.resumed += 1;
      this.attach(earlier.vendorBatchId, earlier.customId, waiter);
      return;
    }
    this.queue.push({ customId: this.nextCustomId(waiter.key), waiter });
    this.schedule();
  }

  private resumeLater(key: string, slot: { vendorBatchId: string; customId: string }): void {
    const list = this.resumable.get(key) ?? [];
    list.push(slot);
    this.resumable.set(key, list);
  }

  private nextCustomId(key: string): string {
    this.sequence += 1;
    // Anthropic's rule (^[a-zA-Z0-9_-]{1,64}$) is the strictest; keys are hex, but keyOf is the caller's.
    return `m3-${this.sequence}-${key.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 16)}`;
  }

  /**
   * The episode stopped waiting (Ctrl-C, the task timeout). Its job keeps the request: the same
   * request made again (a requeued task) waits for that job instead of being submitted twice.
   */
  private abandon(waiter: Waiter, reason: unknown): void {
    if (waiter.done) return;
    waiter.done = true;
    if (waiter.slot) this.resumeLater(waiter.key, waiter.slot);
    waiter.reject(reason);
  }

  private schedule(): void {
    clearTimeout(this.timer);
    const waiting = this.queue.filter((entry) => !entry.waiter.done).length;
    if (waiting >= this.options.maxSize) {
      void this.flush();
      return;
    }
    this.timer = setTimeout(() => void this.flush(), this.options.windowMs);
  }

  private async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const entries = this.queue.filter((entry) => !entry.waiter.done);
    this.queue = [];
    if (entries.length === 0) return;
    let created!: () => void;
    const creating = new Promise<void>((resolve) => (created = resolve));
    for (const entry of entries) this.submitting.set(entry.waiter.key, creating);
    try {
      await this.submitJob(entries);
    } finally {
      for (const entry of entries) if (this.submitting.get(entry.waiter.key) === creating) this.submitting.delete(entry.waiter.key);
      created();
    }
  }

  private async submitJob(entries: ReadonlyArray<{ customId: string; waiter: Waiter }>): Promise<void> {
    let vendorBatchId: string;
    try {
      vendorBatchId = (await this.backend.submit(entries.map((entry) => ({ customId: entry.customId, request: entry.waiter.request })))).vendorBatchId;
      await this.ledger.recorded(
        vendorBatchId,
        entries.map((entry) => ({ customId: entry.customId, key: entry.waiter.key })),
      );
    } catch (error) {
      const reason = `the batch job was not created (${error instanceof Error ? error.message : String(error)})`;
      for (const entry of entries) this.fallback(entry.waiter, undefined, reason);
      return;
    }
    this.counts.jobs += 1;
    this.counts.submitted += entries.length;
    this.options.onState?.(`batch ${vendorBatchId} (${this.backend.id}): submitted ${entries.length} request(s)`);
    for (const entry of entries) {
      // An episode that stopped waiting while the job was created: the job holds its request,
      // so the same request made again waits for it (abandon() does this for one already attached).
      if (entry.waiter.done) this.resumeLater(entry.waiter.key, { vendorBatchId, customId: entry.customId });
      else this.attach(vendorBatchId, entry.customId, entry.waiter);
    }
  }

  private attach(vendorBatchId: string, customId: string, waiter: Waiter): void {
    waiter.slot = { vendorBatchId, customId };
    let job = this.jobs.get(vendorBatchId);
    if (!job) {
      job = { vendorBatchId, waiters: new Map(), polling: false };
      this.jobs.set(vendorBatchId, job);
    }
    if (job.results) {
      this.deliver(job, customId, waiter);
      return;
    }
    job.waiters.set(customId, waiter);
    if (!job.polling) {
      job.polling = true;
      void this.pollUntilDone(job);
    }
  }

  private async pollUntilDone(job: Job): Promise<void> {
    let delayMs = this.options.pollMs;
    let failures = 0;
    let lastDetail = '';
    for (;;) {
      await sleep(delayMs);
      // Every episode waiting on this job stopped (Ctrl-C): the job stays pending for --resume.
      if ([...job.waiters.values()].every((waiter) => waiter.done)) {
        job.polling = false;
        return;
      }
      try {
        const status = await this.backend.poll(job.vendorBatchId);
        failures = 0;
        if (status.detail !== lastDetail) {
          lastDetail = status.detail;
          this.ledger.updated(job.vendorBatchId, status.state, status.detail);
          this.options.onState?.(`batch ${job.vendorBatchId} (${this.backend.id}): ${status.detail}`);
        }
        if (status.state !== 'pending') break;
      } catch (error) {
        failures += 1;
        this.options.onFallback?.(
          `batch ${job.vendorBatchId}: poll ${failures} of ${maxPollFailures} failed (${error instanceof Error ? error.message : String(error)})`,
        );
        if (failures >= maxPollFailures) {
          this.ledger.updated(job.vendorBatchId, 'failed', `polling failed ${failures} times: ${error instanceof Error ? error.message : String(error)}`);
          break;
        }
      }
      delayMs = Math.min(delayMs * 2, this.options.pollMaxMs);
    }
    await this.collect(job);
  }

  private async collect(job: Job): Promise<void> {
    const requests = new Map([...job.waiters].map(([customId, waiter]) => [customId, waiter.request] as const));
    try {
      job.results = await this.backend.results(job.vendorBatchId, requests);
    } catch (error) {
      this.options.onFallback?.(`batch ${job.vendorBatchId}: results could not be read (${error instanceof Error ? error.message : String(error)})`);
      job.results = new Map();
    }
    for (const [customId, waiter] of job.waiters) this.deliver(job, customId, waiter);
    job.waiters.clear();
  }

  private deliver(job: Job, customId: string, waiter: Waiter): void {
    if (waiter.done) return;
    const result = job.results?.get(customId);
    if (result?.kind !== 'answered') {
      this.fallback(waiter, job.vendorBatchId, result?.reason ?? 'the job returned no result for it', customId);
      return;
    }
    waiter.done = true;
    this.counts.answered += 1;
    this.counts.answeredUsage = addUsage(this.counts.answeredUsage, result.response.usage);
    this.ledger.settled(job.vendorBatchId, customId, 'answered');
    waiter.resolve({ ...result.response, latencyMs: Date.now() - waiter.startedAt, batch: { vendorBatchId: job.vendorBatchId, customId } });
  }

  private fallback(waiter: Waiter, vendorBatchId: string | undefined, reason: string, customId?: string): void {
    if (waiter.done) return;
    waiter.done = true;
    this.counts.fallback += 1;
    if (vendorBatchId && customId) this.ledger.settled(vendorBatchId, customId, 'fallback');
    this.options.onFallback?.(`${vendorBatchId ? `batch ${vendorBatchId}` : 'batch'}: ${reason}; sent on the ordinary path`);
    this.driver.generate(waiter.request, waiter.options).then(waiter.resolve, waiter.reject);
  }
}
