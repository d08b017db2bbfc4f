// Progress for long runs on stderr: a live bar on a terminal (done, failed, infra, running,
// ETA, tokens; or files and bytes for a transfer), plain one-line updates in CI or when stderr
// is not a TTY. `note` says what the run is waiting on (src/log/waiting-on.ts): a plain line, or
// the bar's last field until the next update.
import cliProgress from 'cli-progress';

interface ProgressSnapshot {
  total: number;
  done: number;
  failedModel: number;
  failedInfra: number;
  running: number;
  tokens: number;
}

export interface ProgressRenderer {
  update(snapshot: ProgressSnapshot, line?: string): void;
  /** A passing remark (e.g. "waiting on ocr/extract_text ..."): its own plain line, or the bar's tail until the next update. */
  note(text: string): void;
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
 * The bar's ETA from this process's own pace (progress made since the bar started): "--" until
 * something has finished, instead of cli-progress's "INF"/"NULL" placeholders, which it renders
 * as `NFs` in the first frames.
 */
function etaText(elapsedMs: number, madeSinceStart: number, remaining: number): string {
  if (remaining <= 0) return '0s';
  if (madeSinceStart <= 0 || elapsedMs <= 0) return '--';
  return formatDuration((elapsedMs / madeSinceStart) * remaining);
}

/** How one kind of snapshot is drawn: the bar's total and value, its payload, the plain prefix. */
interface Drawing<S> {
  format: string;
  total(snapshot: S): number;
  value(snapshot: S): number;
  payload(snapshot: S): Record<string, unknown>;
  position(snapshot: S): string;
}

function createRenderer<S>(label: string, drawing: Drawing<S>, stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv) {
  let last: S | undefined;
  if (!stream.isTTY || env.CI) {
    return {
      update(snapshot: S, line?: string) {
        last = snapshot;
        if (line) stream.write(`[${label}] ${drawing.position(snapshot)} ${line}\n`);
      },
      note(text: string) {
        stream.write(`[${label}]${last ? ` ${drawing.position(last)}` : ''} ${text}\n`);
      },
      stop() {},
    };
  }
  const bar = new cliProgress.SingleBar(
    { stream, format: `${label} ${drawing.format}`, hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let startedAt = 0;
  let valueAtStart = 0;
  const payload = (snapshot: S, note = '') => {
    const value = drawing.value(snapshot);
    return { ...drawing.payload(snapshot), note, etaText: etaText(Date.now() - startedAt, value - valueAtStart, drawing.total(snapshot) - value) };
  };
  return {
    note(text: string) {
      if (started && last) bar.update(drawing.value(last), payload(last, ` | ${text}`));
    },
    update(snapshot: S) {
      last = snapshot;
      if (!started) {
        startedAt = Date.now();
        valueAtStart = drawing.value(snapshot);
        bar.start(drawing.total(snapshot), valueAtStart, payload(snapshot));
        started = true;
      } else bar.update(drawing.value(snapshot), payload(snapshot));
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr, env: NodeJS.ProcessEnv = process.env): ProgressRenderer {
  return createRenderer<ProgressSnapshot>(
    label,
    {
      format: '[{bar}] {value}/{total} | failed {failedModel} | infra {failedInfra} | running {running} | tokens {tokens} | ETA {etaText}{note}',
      total: (snapshot) => snapshot.total,
      value: (snapshot) => snapshot.done,
      payload: (snapshot) => ({ failedModel: snapshot.failedModel, failedInfra: snapshot.failedInfra, running: snapshot.running, tokens: snapshot.tokens }),
      position: (snapshot) => `${snapshot.done}/${snapshot.total}`,
    },
    stream,
    env,
  );
}

interface TransferSnapshot {
  files: number;
  filesTotal: number;
  bytes: number;
  /** 0 when unknown: the bar then counts files. */
  bytesTotal: number;
}

export interface TransferProgress {
  /** `line` is printed as is in plain mode (one line per finished file); the bar ignores it. */
  update(snapshot: TransferSnapshot, line?: string): void;
  note(text: string): void;
  stop(): void;
}

function formatSize(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e3).toFixed(0)} kB`;
}

export function createTransferProgress(label: string, stream: NodeJS.WriteStream = process.stderr, env: NodeJS.ProcessEnv = process.env): TransferProgress {
  const byBytes = (snapshot: TransferSnapshot) => snapshot.bytesTotal > 0;
  return createRenderer<TransferSnapshot>(
    label,
    {
      format: '[{bar}] {percentage}% | {files}/{filesTotal} files | {size} | ETA {etaText}',
      total: (snapshot) => (byBytes(snapshot) ? snapshot.bytesTotal : snapshot.filesTotal),
      value: (snapshot) => (byBytes(snapshot) ? Math.min(snapshot.bytes, snapshot.bytesTotal) : snapshot.files),
      payload: (snapshot) => ({
        files: snapshot.files,
        filesTotal: snapshot.filesTotal,
        size: byBytes(snapshot) ? `${formatSize(snapshot.bytes)} / ${formatSize(snapshot.bytesTotal)}` : '',
      }),
      position: (snapshot) => `${snapshot.files}/${snapshot.filesTotal}`,
    },
    stream,
    env,
  );
}
