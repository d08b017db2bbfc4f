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
      format: `${label} [{bar}] {value}/{total} | failed {failedModel} | infra {failedInfra} | running {running} | tokens {tokens} | ETA {eta_formatted}`,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(snapshot) {
      const payload = { failedModel: snapshot.failedModel, failedInfra: snapshot.failedInfra, running: snapshot.running, tokens: snapshot.tokens };
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
