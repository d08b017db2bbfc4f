// Every file argument a local server touches is resolved inside the allowed roots:
// the repository's media/ folder (task images, per-task workspaces) plus any folders listed
// in M3_ALLOWED_ROOTS (path-delimiter separated). `..` escapes and symlinks out are refused.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export class PathNotAllowedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PathNotAllowedError';
  }
}

function repoMediaDir(): string {
  // servers/shared/ → repo root (source) or dist/servers/shared → repo root (built)
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    if (existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'media');
    dir = path.dirname(dir);
  }
  return path.resolve('media');
}

export function allowedRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  const extra = (env.M3_ALLOWED_ROOTS ?? '')
    .split(path.delimiter)
    .map((entry) => entry.trim())
    .filter(Boolean);
  return [repoMediaDir(), ...extra].map((root) => path.resolve(root));
}

function realOrSelf(target: string): string {
  // Resolve symlinks on the longest existing prefix, so outputs that do not exist yet still work.
  let probe = target;
  const rest: string[] = [];
  while (!existsSync(probe)) {
    const parent = path.dirname(probe);
    if (parent === probe) return target;
    rest.unshift(path.basename(probe));
    probe = parent;
  }
  return path.join(realpathSync(probe), ...rest);
}

function isInside(child: string, root: string): boolean {
  const relative = path.relative(root, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Resolves a user-supplied path (plain, relative to the repo root, or a file:// URI) and checks
 * it stays inside an allowed root after following symlinks.
 */
export function resolveAllowedPath(input: string, roots: readonly string[] = allowedRoots()): string {
  const raw = input.startsWith('file://') ? fileURLToPath(input) : input;
  const base = path.dirname(roots[0] ?? process.cwd()); // repo root: media/ lives directly below it
  const absolute = path.resolve(base, raw);
  const real = realOrSelf(absolute);
  const realRoots = roots.map((root) => (existsSync(root) ? realpathSync(root) : root));
  if (!realRoots.some((root) => isInside(real, root))) {
    // Name the folders without their absolute machine paths: the message reaches the model.
    const extra = roots.length - 1;
    const folders = extra > 0 ? `media/ and ${extra} folder${extra === 1 ? '' : 's'} from M3_ALLOWED_ROOTS` : 'media/';
    throw new PathNotAllowedError(
      `path "${input}" is outside the allowed folders (${folders}); put the file under media/ or add its folder to M3_ALLOWED_ROOTS`,
    );
  }
  return real;
}
