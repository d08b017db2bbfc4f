// The reference prediction file: a JSON array in id-insertion order, rewritten in full after
// every finished task through a temp file + fsync + rename, so a crash never leaves half a file.
// Each record is serialised once, when it is put, and held as text only until the next rewrite;
// from then on the file itself holds it, and later rewrites copy its bytes from the file they
// replace (src/runner/file-pieces.ts). Serialising every record again on every rewrite made a run
// quadratic (2,000 records took about a second per rewrite), and holding every record's text kept
// about 0.9 KB per finished task of a 2,000-task `npm run bench:memory` run on the heap.
// Arguments keep the model's float forms (`2.0`, see src/core/json-numbers.ts), also across
// --resume: the file is re-read losslessly and its exact arguments laid over the loaded records.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { parseJsonKeepingFloats, stringifyKeepingFloats } from '../core/json-numbers.js';
import { loadPredictionRecords } from '../tasks/load.js';
import { log } from '../log/logger.js';
import { redactKnownSecrets } from '../log/redact.js';
import type { PredictionRecord } from '../tasks/schemas.js';
import { assertUnchanged, type FileStamp, type Piece, pieceBytes, pushPiece, writePieces, writePiecesAsync } from './file-pieces.js';

type ExactCall = { arguments?: unknown };
type ExactRecord = { id?: unknown; steps?: Array<{ calls?: ExactCall[] }>; dialogue?: Array<{ work?: { tool_calls?: ExactCall[] } }> };

/** Copies `arguments` position by position from the lossless parse onto calls of the same shape. */
function overlayCalls(target: ExactCall[] | undefined, exact: ExactCall[] | undefined): void {
  target?.forEach((call, index) => {
    const source = exact?.[index];
    if (source && 'arguments' in source && 'arguments' in call) call.arguments = source.arguments;
  });
}

function withExactArguments(records: PredictionRecord[], text: string): void {
  let exact: unknown;
  try {
    exact = parseJsonKeepingFloats(text);
  } catch {
    return;
  }
  if (!Array.isArray(exact)) return;
  const byId = new Map((exact as ExactRecord[]).map((record) => [String(record.id), record]));
  for (const record of records as unknown as ExactRecord[]) {
    const source = byId.get(String(record.id));
    for (const [index, step] of (record.steps ?? []).entries()) overlayCalls(step.calls, source?.steps?.[index]?.calls);
    for (const [index, round] of (record.dialogue ?? []).entries()) overlayCalls(round.work?.tool_calls, source?.dialogue?.[index]?.work?.tool_calls);
  }
}

/**
 * One array element as `stringifyKeepingFloats(records, 2)` writes it: indented one level. The
 * serialiser's output is a rope of small pieces (about 4.5 KB of heap for 840 characters); the
 * UTF-8 round trip keeps one flat copy (under 1 KB), which is what a long run holds per task.
 */
const toElementText = (record: PredictionRecord) => {
  const text = `  ${stringifyKeepingFloats(record, 2).replaceAll('\n', '\n  ')}`;
  return Buffer.from(text, 'utf8').toString('utf8');
};

/** A record not yet written (its text), or where the last rewrite put it (a byte range of the file). */
type Entry = { text: string } | { start: number; length: number };

const SEPARATOR = ',\n';

/** The file as pieces, each record's place in it, and its size; laid out as `stringifyKeepingFloats(records, 2)` writes. */
function layout(entries: ReadonlyMap<string, Entry>) {
  const pieces: Piece[] = [];
  const placed: Array<{ id: string; entry: Entry; start: number; length: number }> = [];
  let size = 0;
  const add = (piece: Piece) => {
    pushPiece(pieces, piece);
    size += pieceBytes(piece);
  };
  if (entries.size === 0) add({ text: '[]\n' });
  else add({ text: '[\n' });
  for (const [id, entry] of entries) {
    if (placed.length > 0) {
      const last = pieces[pieces.length - 1] as Piece;
      // Two records last written side by side have their separator between them in the file too.
      const adjacent = 'start' in entry && 'from' in last && last.from + last.length + SEPARATOR.length === entry.start;
      add(adjacent ? { from: last.from + last.length, length: SEPARATOR.length } : { text: SEPARATOR });
    }
    const start = size;
    add('text' in entry ? { text: entry.text } : { from: entry.start, length: entry.length });
    placed.push({ id, entry, start, length: size - start });
  }
  if (entries.size > 0) add({ text: '\n]\n' });
  return { pieces, placed, size };
}

export class PredictionFile {
  /** Record id → its text or its place in the file, in id-insertion order. */
  private readonly records = new Map<string, Entry>();
  /** The version of the file this object last wrote (what its byte ranges refer to). */
  private written: FileStamp | undefined;
  private writing: Promise<void> | undefined;
  private dirty = false;
  /** Why the last scheduled rewrite failed, until one succeeds or flush() reports it. */
  private failure: unknown;

  constructor(readonly file: string) {}

  /** Loads an existing file (for --resume); unknown shapes fail with the file named. */
  load(): number {
    if (!existsSync(this.file)) return 0;
    const loaded = loadPredictionRecords(this.file);
    withExactArguments(loaded, readFileSync(this.file, 'utf8'));
    for (const record of loaded) this.put(record);
    return this.records.size;
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  ids(): string[] {
    return [...this.records.keys()];
  }

  /** The records, parsed back from the file and the texts not yet written; call arguments keep their float forms, as load() does. */
  values(): PredictionRecord[] {
    this.refuseWhileWriting('values');
    const entries = [...this.records.values()];
    const bytes = entries.some((entry) => 'start' in entry) ? this.readOwnFile() : undefined;
    return entries.map((entry) => {
      const text = 'text' in entry ? entry.text : (bytes as Buffer).toString('utf8', entry.start, entry.start + entry.length);
      const record = JSON.parse(text) as PredictionRecord;
      withExactArguments([record], `[${text}]`);
      return record;
    });
  }

  clear(): void {
    this.records.clear();
  }

  /** Stores the record as it is now: later changes to the object do not reach the file. */
  put(record: PredictionRecord): void {
    this.records.set(record.id, { text: toElementText(redactKnownSecrets(record)) });
  }

  save(): void {
    this.refuseWhileWriting('save');
    const planned = layout(this.records);
    this.placed(planned, writePieces(this.file, planned.pieces, this.written));
  }

  /**
   * Schedules a rewrite without blocking the event loop; bursts of finished tasks coalesce into
   * one write. The store holds every finished prediction first, so a crash between two writes
   * loses nothing: --resume restores the file from the store.
   */
  saveSoon(): void {
    this.dirty = true;
    if (this.writing) return;
    this.writing = (async () => {
      while (this.dirty) {
        this.dirty = false;
        const planned = layout(this.records);
        this.placed(planned, await writePiecesAsync(this.file, planned.pieces, this.written));
      }
    })()
      .then(() => {
        this.failure = undefined;
      })
      .catch((error: unknown) => {
        // A failed rewrite must not end the run (the store holds every record): it is reported
        // now, retried by the next scheduled write, and thrown by flush() unless one succeeded since.
        if (!this.failure) log.warn(`could not rewrite ${this.file}: ${(error as Error).message}`);
        this.failure = error;
      })
      .finally(() => {
        this.writing = undefined;
      });
  }

  /** Waits for scheduled writes; call before reading the file or exiting. Throws the failure of the last one, if it failed. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    const failure = this.failure;
    this.failure = undefined;
    if (failure) throw failure;
  }

  /** After a rewrite: each record written is now a range of the new file, unless it was put again meanwhile. */
  private placed({ placed, size }: ReturnType<typeof layout>, written: FileStamp): void {
    if (written.size !== size) throw new Error(`${this.file}: wrote ${written.size} bytes where the layout has ${size}`);
    for (const { id, entry, start, length } of placed) if (this.records.get(id) === entry) this.records.set(id, { start, length });
    this.written = written;
  }

  private readOwnFile(): Buffer {
    assertUnchanged(this.file, statSync(this.file), this.written);
    return readFileSync(this.file);
  }

  private refuseWhileWriting(what: string): void {
    if (this.writing) throw new Error(`PredictionFile.${what}() while a scheduled write of ${this.file} runs: await flush() first`);
  }
}
