// Rewriting a file from new text and byte ranges of its previous version, through the atomic temp
// file + fsync + rename of src/tasks/write-json.ts. The prediction file uses it so that a long run
// holds in memory only the records not yet written, not the text of every finished task: a
// rewrite copies the earlier records from the file it last wrote. Ranges are copied in chunks, so
// a rewrite needs no more memory than one chunk, whatever the file's size.
import { closeSync, fstatSync, openSync, readSync, type Stats, writeSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { writeFileAtomicAsyncWith, writeFileAtomicWith } from '../tasks/write-json.js';

/** A piece of the new file: text, or `length` bytes from `from` in the current file. */
export type Piece = { text: string } | { from: number; length: number };

const CHUNK_BYTES = 256 * 1024;

/** Appends a piece, joining it to the previous one when both are text or adjacent ranges. */
export function pushPiece(pieces: Piece[], piece: Piece): void {
  const last = pieces[pieces.length - 1];
  if ('text' in piece) {
    if (piece.text === '') return;
    if (last && 'text' in last) last.text += piece.text;
    else pieces.push({ text: piece.text });
  } else if (piece.length > 0) {
    if (last && 'from' in last && last.from + last.length === piece.from) last.length += piece.length;
    else pieces.push({ from: piece.from, length: piece.length });
  }
}

export const pieceBytes = (piece: Piece) => ('text' in piece ? Buffer.byteLength(piece.text) : piece.length);

function writeAllSync(fd: number, bytes: Buffer): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** What identifies the version of a file this process wrote: a rewrite copies only from that version. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

const stampOf = (stats: Pick<Stats, 'size' | 'mtimeMs'>): FileStamp => ({ size: stats.size, mtimeMs: stats.mtimeMs });
const stampText = (stamp: FileStamp) => `${stamp.size} bytes, modified ${new Date(stamp.mtimeMs).toISOString()}`;

/** Throws unless `found` is the version `expected` names. */
export function assertUnchanged(file: string, found: FileStamp, expected: FileStamp | undefined): void {
  if (expected && found.size === expected.size && found.mtimeMs === expected.mtimeMs) return;
  throw new Error(
    `${file} changed since this process last wrote it (${stampText(found)}; expected ${expected ? stampText(expected) : 'no earlier version'}): the records it held cannot be copied into the rewrite; the run store still has them (--resume)`,
  );
}

/**
 * Writes `pieces` to `file` and returns the new version's stamp; ranges are read from the current
 * `file`, which must be the version `source` names.
 */
export function writePieces(file: string, pieces: readonly Piece[], source: FileStamp | undefined): FileStamp {
  const copies = pieces.some((piece) => 'from' in piece);
  let written: FileStamp | undefined;
  writeFileAtomicWith(file, (fd) => {
    const from = copies ? openSync(file, 'r') : undefined;
    try {
      if (from !== undefined) assertUnchanged(file, stampOf(fstatSync(from)), source);
      const chunk = copies ? Buffer.allocUnsafe(CHUNK_BYTES) : Buffer.alloc(0);
      for (const piece of pieces) {
        if ('text' in piece) {
          writeAllSync(fd, Buffer.from(piece.text, 'utf8'));
          continue;
        }
        for (let done = 0; done < piece.length; ) {
          const read = readSync(from as number, chunk, 0, Math.min(CHUNK_BYTES, piece.length - done), piece.from + done);
          if (read === 0) throw new Error(`${file} ended at byte ${piece.from + done} while copying a record (expected ${piece.from + piece.length})`);
          writeAllSync(fd, chunk.subarray(0, read));
          done += read;
        }
      }
      written = stampOf(fstatSync(fd));
    } finally {
      if (from !== undefined) closeSync(from);
    }
  });
  return written as FileStamp;
}

/** writePieces without blocking the event loop. */
export async function writePiecesAsync(file: string, pieces: readonly Piece[], source: FileStamp | undefined): Promise<FileStamp> {
  const copies = pieces.some((piece) => 'from' in piece);
  let written: FileStamp | undefined;
  await writeFileAtomicAsyncWith(file, async (target) => {
    let from: FileHandle | undefined;
    try {
      if (copies) {
        from = await open(file, 'r');
        assertUnchanged(file, stampOf(await from.stat()), source);
      }
      const chunk = copies ? Buffer.allocUnsafe(CHUNK_BYTES) : Buffer.alloc(0);
      for (const piece of pieces) {
        if ('text' in piece) {
          await target.writeFile(piece.text);
          continue;
        }
        for (let done = 0; done < piece.length; ) {
          const { bytesRead } = await (from as FileHandle).read(chunk, 0, Math.min(CHUNK_BYTES, piece.length - done), piece.from + done);
          if (bytesRead === 0) throw new Error(`${file} ended at byte ${piece.from + done} while copying a record (expected ${piece.from + piece.length})`);
          await target.writeFile(chunk.subarray(0, bytesRead));
          done += bytesRead;
        }
      }
      written = stampOf(await target.stat());
    } finally {
      await from?.close();
    }
  });
  return written as FileStamp;
}
