// Saves bytes a web server fetched (a PDF, a photo, a map tile) into the task's workspace:
// size-capped by the HTTP client, typed by the bytes (never by the URL or content-type), under
// a sanitised file name that cannot leave the folder. The bytes go to a fresh temp file that is
// renamed onto the name, so a symlink planted at that name is replaced, never followed.
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';

export interface SavedFile {
  /** Absolute path of the written file. */
  file: string;
  mimeType: string;
  bytes: number;
}

/** A file-system-safe name: letters, digits, dot, dash, underscore; at most 120 characters. */
export function safeFileName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 120);
  return cleaned === '' ? 'download' : cleaned;
}

/**
 * Writes `data` as `<dir>/<stem>.<ext>` where ext comes from the bytes. `allowed` lists the
 * MIME types accepted (e.g. ['application/pdf'] or image types); anything else is refused.
 */
export async function saveDownload(dir: string, stem: string, data: Buffer, allowed: readonly string[]): Promise<SavedFile> {
  const type = await fileTypeFromBuffer(data);
  if (!type || !allowed.includes(type.mime)) {
    throw new Error(`downloaded ${data.length} bytes are ${type ? type.mime : 'of no known type'}, expected ${allowed.join(' or ')}`);
  }
  const base = safeFileName(stem).replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const file = path.join(dir, `${base}.${type.ext}`);
  const temp = path.join(dir, `.${base}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, data, { flag: 'wx' });
    await rename(temp, file);
  } finally {
    await rm(temp, { force: true });
  }
  return { file, mimeType: type.mime, bytes: data.length };
}
