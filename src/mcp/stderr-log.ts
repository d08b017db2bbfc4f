// A server's stderr: appended to a per-run log file (one per server, kept across restarts) and
// the last lines kept in memory, so start failures and crashes can show what the server said.
// Lines are redacted before they are stored anywhere, since servers may echo their credentials.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { redactText } from '../log/redact.js';

const defaultTailLines = 50;

export class StderrLog {
  readonly file: string | undefined;
  private readonly lines: string[] = [];
  private partial = '';
  private stream: WriteStream | undefined;

  constructor(
    logDir: string | undefined,
    serverName: string,
    private readonly maxLines = defaultTailLines,
  ) {
    if (logDir) {
      mkdirSync(logDir, { recursive: true });
      this.file = path.join(logDir, `${serverName.replace(/[^A-Za-z0-9._-]/g, '_')}.stderr.log`);
      this.stream = createWriteStream(this.file, { flags: 'a' });
      // A full disk must not crash the host; the in-memory tail still works.
      this.stream.on('error', () => {
        this.stream = undefined;
      });
    }
  }

  /** A marker line written by the host itself (process start, exit), kept in file and tail. */
  note(message: string): void {
    this.push(`--- ${new Date().toISOString()} ${message} ---`);
  }

  /** Reads a child's stderr until it ends; resolves on end so crash reports include the last words. */
  attach(source: Readable): Promise<void> {
    source.setEncoding('utf8');
    source.on('data', (chunk: string) => this.append(chunk));
    return new Promise((resolve) => {
      source.once('end', () => {
        this.flushPartial();
        resolve();
      });
      source.once('close', () => {
        this.flushPartial();
        resolve();
      });
    });
  }

  append(chunk: string): void {
    const pieces = (this.partial + chunk).split(/\r?\n/);
    this.partial = pieces.pop() ?? '';
    for (const piece of pieces) this.push(piece);
  }

  private flushPartial(): void {
    if (this.partial !== '') {
      this.push(this.partial);
      this.partial = '';
    }
  }

  private push(line: string): void {
    const clean = redactText(line);
    this.lines.push(clean);
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines);
    this.stream?.write(`${clean}\n`);
  }

  /** The last `count` lines (at most the kept tail), oldest first. */
  tail(count = this.maxLines): string[] {
    return this.lines.slice(-count);
  }

  /** A short block for error messages: the last lines of the latest process, indented, or nothing. */
  tailText(count = 15): string {
    const kept = this.tail();
    const lastStart = kept.findLastIndex((line) => line.startsWith('--- ') && line.includes(' started pid '));
    const lines = kept
      .slice(lastStart + 1)
      .filter((line) => !line.startsWith('--- '))
      .slice(-count);
    return lines.length === 0 ? '' : `\n  stderr (last ${lines.length} lines):\n    ${lines.join('\n    ')}`;
  }

  async close(): Promise<void> {
    this.flushPartial();
    const stream = this.stream;
    this.stream = undefined;
    if (stream) await new Promise<void>((resolve) => stream.end(resolve));
  }
}
