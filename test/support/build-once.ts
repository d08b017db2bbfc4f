// Builds dist/ for the test run when it is missing or older than the sources (`npm run build`'s
// tsc), so the suite's child processes start compiled code (test/support/built-entry.ts). CI's
// .ci/run builds before `npm test`, so there this finds dist/ fresh and does nothing. A lock
// folder keeps two runs of the suite in one checkout from writing dist/ at the same time.
// The fixture servers (test/support/fixture-servers/, outside the build) are transpiled beside it,
// module by module without a type check (their types are checked by tsconfig.test.json).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import ts from 'typescript';
import { builtFixtureFile, builtFolders, distIsFresh, fixtureServersDir } from './built-entry.js';
import { repoRoot } from './shared-assets.js';

const lockDir = path.join(repoRoot, 'dist', '.test-build-lock');
/** A lock older than this was left by a killed run (a build takes ~1-3 min on the loaded 2-core machine). */
const staleLockMs = 15 * 60_000;

function takeLock(): boolean {
  mkdirSync(path.dirname(lockDir), { recursive: true });
  try {
    mkdirSync(lockDir);
    return true;
  } catch {
    try {
      if (Date.now() - statSync(lockDir).mtimeMs > staleLockMs) rmSync(lockDir, { recursive: true, force: true });
    } catch {
      // Released meanwhile.
    }
    return false;
  }
}

/** Transpiles each fixture server whose dist/ twin is missing or older; returns how many. */
function transpileFixtures(): number {
  let count = 0;
  for (const name of readdirSync(fixtureServersDir)) {
    if (!name.endsWith('.ts') || name === 'fixture-spec.ts') continue;
    const source = path.join(fixtureServersDir, name);
    const target = builtFixtureFile(source);
    if (existsSync(target) && statSync(target).mtimeMs >= statSync(source).mtimeMs) continue;
    const output = ts.transpileModule(readFileSync(source, 'utf8'), {
      fileName: source,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    });
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, output.outputText);
    count += 1;
  }
  return count;
}

/** Ensures a fresh dist/ (and the fixture servers beside it); returns what it did, for the setup's log line. */
export async function buildOnce(): Promise<string> {
  const built = await buildDist();
  if (!distIsFresh()) return built;
  return `${built}; ${transpileFixtures()} fixture server(s) transpiled to dist/test/support/fixture-servers/`;
}

function touchAll(dir: string): void {
  if (!existsSync(dir)) return;
  const now = new Date();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) touchAll(full);
    else utimesSync(full, now, now);
  }
}

async function buildDist(): Promise<string> {
  if (process.env.M3_TEST_FROM_SOURCE === '1') return 'M3_TEST_FROM_SOURCE=1: children run from source through tsx';
  while (!distIsFresh()) {
    if (!takeLock()) {
      await sleep(1000);
      continue;
    }
    try {
      if (distIsFresh()) break;
      const started = Date.now();
      const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
      // Incremental, so a rebuild after editing one file re-emits only what changed; its record
      // lives in dist/ and goes with it.
      const args = [tsc, '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', path.join('dist', '.tsbuildinfo')];
      const result = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      // Exit 0, or 2 (type errors, outputs written): dist/ now matches every source, also the
      // files tsc did not rewrite, so date them all now (the freshness checks here and in
      // src/config/built-servers.ts compare modification times). Any other exit leaves dist/ stale.
      if (result.status === 0 || result.status === 2) for (const folder of builtFolders) touchAll(path.join(repoRoot, 'dist', folder));
      // The children then run that output, as tsx would run the sources with the same errors;
      // `npm run typecheck` is the place for them.
      if (result.status !== 0) return `built dist/ in ${seconds} s, tsc exit ${result.status}:\n${`${result.stdout}${result.stderr}`.slice(0, 2000)}`;
      return `built dist/ in ${seconds} s (tsc -p tsconfig.json --incremental)`;
    } finally {
      rmSync(lockDir, { recursive: true, force: true });
    }
  }
  return 'dist/ is fresh';
}
