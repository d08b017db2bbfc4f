// Where the project lives on disk. Relative paths in configs and task files are resolved
// against the repository root, found from this file's location (works from src/ and dist/).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRepoRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'src'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

export const repoRoot = findRepoRoot(path.dirname(fileURLToPath(import.meta.url)));

export function fromRepo(...segments: string[]): string {
  return path.resolve(repoRoot, ...segments);
}
