// Progress for long runs on stderr: a live bar on a terminal (done, failed, infra, running,
// ETA, tokens; or files and bytes for a transfer), plain one-line updates in CI or when stderr
// is not a TTY.
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

function isInteractive(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): boolean {
  return Boolean(stream.isTTY) && !env.CI;
}

export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr, env: NodeJS.ProcessEnv = process.env): ProgressRenderer {
  if (!isInteractive(stream, env)) {
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

export interface TransferSnapshot {
  files: number;
  filesTotal: number;
  bytes: number;
  /** 0 when unknown: the bar then counts files. */
  bytesTotal: number;
}

export interface TransferProgress {
  /** `line` is printed as is in plain mode (one line per finished file); the bar ignores it. */
  update(snapshot: TransferSnapshot, line?: string): void;
  stop(): void;
}

function formatSize(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e3).toFixed(0)} kB`;
}

export function createTransferProgress(label: string, stream: NodeJS.WriteStream = process.stderr, env: NodeJS.ProcessEnv = process.env): TransferProgress {
  if (!isInteractive(stream, env)) {
    return {
      update(snapshot, line) {
        if (line) stream.write(`[${label}] ${snapshot.files}/${snapshot.filesTotal} ${line}\n`);
      },
      stop() {},
    };
  }
  const bar = new cliProgress.SingleBar(
    { stream, format: `${label} [{bar}] {percentage}% | {files}/{filesTotal} files | {size} | ETA {eta_formatted}`, hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(snapshot) {
      const byBytes = snapshot.bytesTotal > 0;
      const payload = { files: snapshot.files, filesTotal: snapshot.filesTotal, size: byBytes ? `${formatSize(snapshot.bytes)} / ${formatSize(snapshot.bytesTotal)}` : '' };
      const value = byBytes ? Math.min(snapshot.bytes, snapshot.bytesTotal) : snapshot.files;
      if (!started) {
        bar.start(byBytes ? snapshot.bytesTotal : snapshot.filesTotal, value, payload);
        started = true;
      } else bar.update(value, payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
