// Where a test's child process runs its code from. Starting a TypeScript entry through tsx
// transpiles every module it loads on each start (an `m3 --version` took 3.35 s through tsx and
// 1.23 s from dist/ on the 2-core machine; a web server was ready in 2.4-2.9 s vs 0.64 s), and the
// suite starts hundreds of children. The global setup (test/support/global-setup.ts) builds dist/
// once when it is older than the sources; the helpers here then start `node dist/<entry>.js`, and
// fall back to `node --import tsx <entry>.ts` when dist/ is missing or stale (a source edited
// after the build), so what a test runs is never older than the code.
// M3_TEST_FROM_SOURCE=1 forces the source path (and skips the build) for a run.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './shared-assets.js';

/** The folders `npm run build` compiles (tsconfig.json's include). */
export const builtFolders = ['src', 'servers', 'tools'];

/** The file whose age stands for the build: the CLI entry, written by every `tsc -p tsconfig.json`. */
const buildMarker = path.join(repoRoot, 'dist', 'src', 'cli', 'main.js');

function newestSourceMs(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
      } else if (entry.name.endsWith('.ts')) {
        newest = Math.max(newest, statSync(full).mtimeMs);
      }
    }
  };
  for (const folder of builtFolders) if (existsSync(path.join(repoRoot, folder))) walk(path.join(repoRoot, folder));
  return newest;
}

/** True when dist/ exists and is newer than every source file it is built from. */
export function distIsFresh(): boolean {
  if (process.env.M3_TEST_FROM_SOURCE === '1') return false;
  if (!existsSync(buildMarker)) return false;
  return statSync(buildMarker).mtimeMs >= newestSourceMs();
}

let fresh: boolean | undefined;

/** distIsFresh(), decided once per test worker (the sources do not change during a run). */
function useDist(): boolean {
  fresh ??= distIsFresh();
  return fresh;
}

/**
 * The node arguments that run a repo TypeScript entry (`src/cli/main.ts`, `servers/math/index.ts`):
 * its compiled twin in dist/ when fresh, else the source through tsx. The fixture servers run
 * from their transpiled twins the same way; other test files always run through tsx.
 */
export function nodeEntryArgs(entry: string): string[] {
  const absolute = path.resolve(repoRoot, entry);
  if (path.dirname(absolute) === fixtureServersDir) return fixtureEntryArgs(absolute, 'tsx').map((arg) => (arg === absolute ? entry : arg));
  const relative = path.relative(repoRoot, absolute);
  const folder = relative.split(/[\\/]/)[0] ?? '';
  if (builtFolders.includes(folder) && relative.endsWith('.ts') && useDist()) {
    const built = path.join(repoRoot, 'dist', relative.replace(/\.ts$/, '.js'));
    if (existsSync(built)) return [built];
  }
  return ['--import', 'tsx', entry];
}

/** The fixture MCP servers; the global setup transpiles them to dist/test/support/fixture-servers/. */
export const fixtureServersDir = path.join(repoRoot, 'test', 'support', 'fixture-servers');

export function builtFixtureFile(source: string): string {
  return path.join(repoRoot, 'dist', path.relative(repoRoot, source).replace(/\.ts$/, '.js'));
}

/**
 * The node arguments that start a fixture server from any working directory: its transpiled twin
 * when dist/ is fresh and the twin is not older than the fixture, else the fixture through tsx's
 * loader (`loaderUrl`, an absolute URL).
 */
export function fixtureEntryArgs(source: string, loaderUrl: string): string[] {
  if (useDist()) {
    const built = builtFixtureFile(source);
    if (existsSync(built) && statSync(built).mtimeMs >= statSync(source).mtimeMs) return [built];
  }
  return ['--import', loaderUrl, source];
}

/** `node <these> <m3 args>` runs the m3 CLI. */
export function m3EntryArgs(): string[] {
  return nodeEntryArgs('src/cli/main.ts');
}
