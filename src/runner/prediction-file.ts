// The reference prediction file: a JSON array in id-insertion order, rewritten in full after
// every finished task through a temp file + fsync + rename, so a crash never leaves half a file.
import { existsSync } from 'node:fs';
import { loadPredictionRecords } from '../tasks/load.js';
import type { PredictionRecord } from '../tasks/schemas.js';
import { writeJsonAtomic, writeJsonAtomicAsync } from '../tasks/write-json.js';

export class PredictionFile {
  private readonly records = new Map<string, PredictionRecord>();
  private writing: Promise<void> | undefined;
  private dirty = false;

  constructor(readonly file: string) {}

  /** Loads an existing file (for --resume); unknown shapes fail with the file named. */
  load(): number {
    if (!existsSync(this.file)) return 0;
    for (const record of loadPredictionRecords(this.file)) this.records.set(record.id, record);
    return this.records.size;
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  ids(): string[] {
    return [...this.records.keys()];
  }

  values(): PredictionRecord[] {
    return [...this.records.values()];
  }

  clear(): void {
    this.records.clear();
  }

  put(record: PredictionRecord): void {
    this.records.set(record.id, record);
  }

  save(): void {
    writeJsonAtomic(this.file, [...this.records.values()]);
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
        await writeJsonAtomicAsync(this.file, [...this.records.values()]);
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
