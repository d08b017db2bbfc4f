// Where the scripts' `m3` runs from (scripts/lib.sh): the compiled dist/src/cli/main.js when it is
// newer than every .ts file under src/ and servers/ (the rule of src/config/built-servers.ts),
// else the source through tsx; M3_USE_DIST=1 / =0 force one side. Real bash children source the
// real lib.sh (and run the real demo.sh) in a temporary checkout whose CLI entries, source and
// compiled, only print which of them ran, so nothing in the repository is touched. m3_has_command
// answers from the command table of that same side without starting the CLI, and asks `m3 --help`
// for a name the table lacks; in the real checkout every name the scripts ask about is answered
// from the table.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
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

// Each start is logged (cli-starts.log, in the checkout the scripts cd to); `--help` lists one
// command, `listed`, that no command table names.
const cli = (side: string) =>
  `import { appendFileSync } from 'node:fs';\n` +
  `const args = process.argv.slice(2).join(' ');\n` +
  `appendFileSync('cli-starts.log', ${JSON.stringify(`${side}:`)} + args + '\\n');\n` +
  `process.stdout.write(args === '--help' ? 'Commands:\\n  listed [options]  only the help lists it\\n' : ${JSON.stringify(`${side}:`)} + args + '\\n');\n`;
const table = (name: string) => `const commandModules = [\n  { names: ['${name}'], load: async () => [] },\n];\n`;
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
  write('src/cli/program.ts', table('sourceonly'), 1_000);
  write('dist/src/cli/program.js', table('distonly'), 2_000);
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

describe("scripts/lib.sh's m3_has_command", { timeout: 120_000 }, () => {
  /** Which of `names` m3_has_command finds, and the CLI starts it made, in a real bash child. */
  function hasCommands(names: string[], env: NodeJS.ProcessEnv = {}) {
    rmSync(path.join(root, 'cli-starts.log'), { force: true });
    const result = spawnSync(
      'bash',
      ['-c', 'set -euo pipefail; source scripts/lib.sh; for name in "$@"; do if m3_has_command "$name"; then echo "$name"; fi; done', 'bash', ...names],
      { cwd: root, encoding: 'utf8', env: { ...process.env, M3_USE_DIST: '', ...env } },
    );
    expect(result.status, result.stderr).toBe(0);
    const log = path.join(root, 'cli-starts.log');
    return { found: result.stdout.split('\n').filter(Boolean), starts: existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [] };
  }

  it('answers a name of the command table m3 runs from without starting the CLI', () => {
    setTime('src/llm/registry.ts', 1_000);
    expect(hasCommands(['distonly'])).toEqual({ found: ['distonly'], starts: [] });
    expect(hasCommands(['sourceonly'], { M3_USE_DIST: '0' })).toEqual({ found: ['sourceonly'], starts: [] });
  });

  it("asks `m3 --help` (from the same side) for a name its table lacks: the other side's, one only the help lists, an unknown one", () => {
    setTime('src/llm/registry.ts', 1_000);
    expect(hasCommands(['sourceonly', 'listed', 'nope'])).toEqual({ found: ['listed'], starts: ['dist:--help', 'dist:--help', 'dist:--help'] });
    expect(hasCommands(['distonly'], { M3_USE_DIST: '0' })).toEqual({ found: [], starts: ['source:--help'] });
  });

  it('in this checkout, answers every name the scripts ask about from the table, starting no CLI', () => {
    const asked = readdirSync(path.join(repoRoot, 'scripts'))
      .filter((file) => file.endsWith('.sh'))
      .flatMap((file) =>
        [...readFileSync(path.join(repoRoot, 'scripts', file), 'utf8').matchAll(/m3_has_command ([a-z][\w-]*)/g)].map((match) => match[1] ?? ''),
      );
    expect(asked).toEqual(expect.arrayContaining(['assets', 'report']));
    // m3 itself fails here: a name the table did not answer would be reported missing.
    const result = spawnSync(
      'bash',
      [
        '-c',
        'source scripts/lib.sh; m3() { echo "m3 started: $*" >&2; return 1; }; for name in "$@"; do m3_has_command "$name" || echo "missing $name"; done',
        'bash',
        ...asked,
      ],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('');
  });
});
