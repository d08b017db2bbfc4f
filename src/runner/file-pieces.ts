// Rewriting a file from new text and byte ranges of its previous version, through the atomic temp
// file + fsync + rename of src/tasks/write-json.ts. The prediction file uses it so that a long run
// holds in memory only the records not yet written, not the text of every finished task: a
// rewrite copies the earlier records from the file it last wrote. Ranges are copied in chunks, so
// a rewrite needs no more memory than one chunk, whatever the file's size.
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
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

function refuseChanged(file: string, size: number, expected: number): never {
  throw new Error(
    `${file} changed since this process last wrote it (${size} bytes, expected ${expected}): the records it held cannot be copied into the rewrite; the run store still has them (--resume)`,
  );
}

/** Writes `pieces` to `file`; ranges are read from the current `file`, which must be `sourceSize` bytes. */
export function writePieces(file: string, pieces: readonly Piece[], sourceSize: number | undefined): void {
  const copies = pieces.some((piece) => 'from' in piece);
  writeFileAtomicWith(file, (fd) => {
    const source = copies ? openSync(file, 'r') : undefined;
    try {
      if (source !== undefined) {
        const { size } = fstatSync(source);
        if (size !== sourceSize) refuseChanged(file, size, sourceSize ?? 0);
      }
      const chunk = copies ? Buffer.allocUnsafe(CHUNK_BYTES) : Buffer.alloc(0);
      for (const piece of pieces) {
        if ('text' in piece) {
          writeAllSync(fd, Buffer.from(piece.text, 'utf8'));
          continue;
        }
        for (let done = 0; done < piece.length; ) {
          const read = readSync(source as number, chunk, 0, Math.min(CHUNK_BYTES, piece.length - done), piece.from + done);
          if (read === 0) refuseChanged(file, piece.from + done, piece.from + piece.length);
          writeAllSync(fd, chunk.subarray(0, read));
          done += read;
        }
      }
    } finally {
      if (source !== undefined) closeSync(source);
    }
  });
}

/** writePieces without blocking the event loop. */
export function writePiecesAsync(file: string, pieces: readonly Piece[], sourceSize: number | undefined): Promise<void> {
  const copies = pieces.some((piece) => 'from' in piece);
  return writeFileAtomicAsyncWith(file, async (target) => {
    let source: FileHandle | undefined;
    try {
      if (copies) {
        source = await open(file, 'r');
        const { size } = await source.stat();
        if (size !== sourceSize) refuseChanged(file, size, sourceSize ?? 0);
      }
      const chunk = copies ? Buffer.allocUnsafe(CHUNK_BYTES) : Buffer.alloc(0);
      for (const piece of pieces) {
        if ('text' in piece) {
          await target.writeFile(piece.text);
          continue;
        }
        for (let done = 0; done < piece.length; ) {
          const { bytesRead } = await (source as FileHandle).read(chunk, 0, Math.min(CHUNK_BYTES, piece.length - done), piece.from + done);
          if (bytesRead === 0) refuseChanged(file, piece.from + done, piece.from + piece.length);
          await target.writeFile(chunk.subarray(0, bytesRead));
          done += bytesRead;
        }
      }
    } finally {
      await source?.close();
    }
  });
}
