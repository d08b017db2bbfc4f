// Progress for long runs on stderr: a live bar on a terminal (done, failed, infra, running,
// ETA, tokens), plain one-line updates in CI or when stderr is not a TTY.
import cliProgress from 'cli-progress';

export interface ProgressSnapshot {
  total: number;
  done: number;
  failedModel: number;
  failedInfra: number;
  running: number;
  tokens: number;
}

export interface ProgressRenderer {
  update(snapshot: ProgressSnapshot, line?: string): void;
  stop(): void;
}

/** `12s`, `3m05s`, `1h02m`: short enough for a progress line. */
function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/**
 * The bar's ETA from this process's own pace (tasks finished since the bar started): "--"
 * until the first task finishes, instead of cli-progress's "INF"/"NULL" placeholders, which it
 * renders as `NFs` in the first frames.
 */
function etaText(elapsedMs: number, finishedSinceStart: number, remaining: number): string {
  if (remaining <= 0) return '0s';
  if (finishedSinceStart <= 0 || elapsedMs <= 0) return '--';
  return formatDuration((elapsedMs / finishedSinceStart) * remaining);
}

export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr, env: NodeJS.ProcessEnv = process.env): ProgressRenderer {
  const interactive = Boolean(stream.isTTY) && !env.CI;
  if (!interactive) {
    return {
      update(snapshot, line) {
        if (line) stream.write(`[${label}] ${snapshot.done}/${snapshot.total} ${line}\n`);
      },
      stop() {},
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${label} [{bar}] {value}/{total} | failed {failedModel} | infra {failedInfra} | running {running} | tokens {tokens} | ETA {etaText}`,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let startedAt = 0;
  let doneAtStart = 0;
  return {
    update(snapshot) {
      if (!started) {
        startedAt = Date.now();
        doneAtStart = snapshot.done;
      }
      const payload = {
        failedModel: snapshot.failedModel, failedInfra: snapshot.failedInfra, running: snapshot.running, tokens: snapshot.tokens,
        etaText: etaText(Date.now() - startedAt, snapshot.done - doneAtStart, snapshot.total - snapshot.done),
      };
      if (!started) {
        bar.start(snapshot.total, snapshot.done, payload);
        started = true;
      } else bar.update(snapshot.done, payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
