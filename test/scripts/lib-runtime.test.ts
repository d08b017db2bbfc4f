// Where the scripts' `m3` runs from (scripts/lib.sh): the compiled dist/src/cli/main.js when it is
// newer than every .ts file under src/ and servers/ (the rule of src/config/built-servers.ts),
// else the source through tsx; M3_USE_DIST=1 / =0 force one side. Real bash children source the
// real lib.sh (and run the real demo.sh) in a temporary checkout whose CLI entries, source and
// compiled, only print which of them ran, so nothing in the repository is touched.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-assets.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'm3-lib-runtime-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(relative: string, text: string, mtimeSec: number): void {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  utimesSync(file, mtimeSec, mtimeSec);
}
const setTime = (relative: string, mtimeSec: number) => utimesSync(path.join(root, relative), mtimeSec, mtimeSec);

const cli = (side: string) => `process.stdout.write(${JSON.stringify(`${side}:`)} + process.argv.slice(2).join(' ') + '\\n');\n`;
const registry = (side: string) => `export function modelLabel(spec) { return ${JSON.stringify(`${side}:`)} + spec.replace(':', '-'); }\n`;

beforeAll(() => {
  for (const script of ['lib.sh', 'demo.sh']) {
    mkdirSync(path.join(root, 'scripts'), { recursive: true });
    copyFileSync(path.join(repoRoot, 'scripts', script), path.join(root, 'scripts', script));
  }
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'));
  writeFileSync(path.join(root, 'package.json'), '{ "type": "module" }\n');
  write('src/cli/main.ts', cli('source'), 1_000);
  write('src/llm/registry.ts', registry('source'), 1_000);
  write('servers/math/index.ts', '// a server\n', 1_000);
  write('dist/src/cli/main.js', cli('dist'), 2_000);
  write('dist/src/llm/registry.js', registry('dist'), 2_000);
});

/** `m3 run --x` and `m3_label replay:gt` through lib.sh, in a real bash child. */
function runScript(env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync('bash', ['-c', 'set -euo pipefail; source scripts/lib.sh; m3 run --x; m3_label replay:gt'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, M3_USE_DIST: '', ...env },
  });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

describe("scripts/lib.sh's m3", { timeout: 120_000 }, () => {
  it('runs dist/ when the build is newer than every source, the source when a file under servers/ or src/ is newer', () => {
    setTime('servers/math/index.ts', 1_000);
    setTime('src/llm/registry.ts', 1_000);
    expect(runScript()).toBe('dist:run --x\ndist:replay-gt');
    // A tie is fresh, as in built-servers.ts (stale only when the build is older).
    setTime('src/llm/registry.ts', 2_000);
    expect(runScript()).toBe('dist:run --x\ndist:replay-gt');
    setTime('servers/math/index.ts', 3_000);
    expect(runScript()).toBe('source:run --x\nsource:replay-gt');
    setTime('servers/math/index.ts', 1_000);
    setTime('src/llm/registry.ts', 3_000);
    expect(runScript()).toBe('source:run --x\nsource:replay-gt');
  });

  it('M3_USE_DIST=0 forces the source over a fresh build, M3_USE_DIST=1 dist/ over a stale one', () => {
    setTime('src/llm/registry.ts', 1_000);
    expect(runScript({ M3_USE_DIST: '0' })).toBe('source:run --x\nsource:replay-gt');
    setTime('src/llm/registry.ts', 3_000);
    expect(runScript({ M3_USE_DIST: '1' })).toBe('dist:run --x\ndist:replay-gt');
  });

  it('demo.sh execs the CLI from the same place', () => {
    setTime('src/llm/registry.ts', 1_000);
    const demo = (env: NodeJS.ProcessEnv) =>
      spawnSync('bash', ['scripts/demo.sh', '--port', '0'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, M3_USE_DIST: '', M3_SKIP_ASSETS: '1', ...env },
      });
    expect(demo({}).stdout).toBe('dist:demo --port 0\n');
    expect(demo({ M3_USE_DIST: '0' }).stdout).toBe('source:demo --port 0\n');
  });
});
