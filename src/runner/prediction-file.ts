// The reference prediction file: a JSON array in id-insertion order, rewritten in full after
// every finished task through a temp file + fsync + rename, so a crash never leaves half a file.
// Each record is kept as its serialised text, written once when it is put: a rewrite only joins
// the texts. Serialising every record again on every rewrite made a run quadratic (2,000 records
// took about a second per rewrite) and the record objects held twice the memory of their text.
// Arguments keep the model's float forms (`2.0`, see src/core/json-numbers.ts), also across
// --resume: the file is re-read losslessly and its exact arguments laid over the loaded records.
import { existsSync, readFileSync } from 'node:fs';
import { parseJsonKeepingFloats, stringifyKeepingFloats } from '../core/json-numbers.js';
import { loadPredictionRecords } from '../tasks/load.js';
import type { PredictionRecord } from '../tasks/schemas.js';
import { writeFileAtomic, writeFileAtomicAsync } from '../tasks/write-json.js';

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

const toText = (elements: Iterable<string>) => {
  const joined = [...elements].join(',\n');
  return joined === '' ? '[]\n' : `[\n${joined}\n]\n`;
};

export class PredictionFile {
  /** Record id → the record's text as an element of the file's array. */
  private readonly records = new Map<string, string>();
  private writing: Promise<void> | undefined;
  private dirty = false;

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

  /** The records, parsed back from their text; call arguments keep their float forms, as load() does. */
  values(): PredictionRecord[] {
    return [...this.records.values()].map((text) => {
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
    this.records.set(record.id, toElementText(record));
  }

  save(): void {
    writeFileAtomic(this.file, toText(this.records.values()));
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
        await writeFileAtomicAsync(this.file, toText(this.records.values()));
      }
    })().finally(() => {
      this.writing = undefined;
    });
  }

  /** Waits for scheduled writes; call before reading the file or exiting. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }
}
