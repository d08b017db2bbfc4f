// A folder for the files a command's tool calls write (`m3 tasks verify`, `m3 servers check
// --smoke`), so nothing lands under the repository's tracked paths (media/, json/): the folder the
// user named (kept), else a fresh temp folder removed when the command ends.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export async function withScratchFolder<T>(prefix: string, given: string | undefined, use: (dir: string) => Promise<T>): Promise<T> {
  if (given) {
    const dir = path.resolve(given);
    mkdirSync(dir, { recursive: true });
    return use(dir);
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  try {
    return await use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
