// The import rules catch what they promise: dependency-cruiser, with the repository's own
// .dependency-cruiser.cjs, runs over a temporary tree in which every folder of the layer list
// imports the layer above it, an unlisted folder imports core, and servers import each other.
// Each planted upward import must be reported, and the allowed ones (downward, and the justified
// exceptions) must not be.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-assets.js';

const configPath = path.join(repoRoot, '.dependency-cruiser.cjs');
const layers = (createRequire(import.meta.url)(configPath) as { layers: string[][] }).layers;

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

let dir = '';
let violations: Violation[] = [];

function plant(file: string, imports: string[] = []): void {
  const full = path.join(dir, file);
  mkdirSync(path.dirname(full), { recursive: true });
  const lines = imports.map((target, i) => {
    const relative = path.relative(path.dirname(file), target).replace(/\.ts$/, '.js');
    return `import { value as v${i} } from '${relative.startsWith('.') ? relative : `./${relative}`}';\nconsole.log(v${i});`;
  });
  writeFileSync(full, `${lines.join('\n')}\nexport const value = 1;\n`);
}

const target = (folder: string) => `src/${folder}/planted-target.ts`;

function reported(from: string, to: string): string[] {
  return violations.filter((v) => v.from === from && v.to === to).map((v) => v.rule.name);
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'm3-imports-'));
  writeFileSync(path.join(dir, 'tsconfig.json'), readFileSync(path.join(repoRoot, 'tsconfig.json')));
  for (const folder of layers.flat()) plant(target(folder));
  layers.forEach((layer, index) => {
    const next = layers[index + 1];
    for (const folder of layer) {
      if (next) plant(`src/${folder}/planted-up.ts`, [target(next[0] as string)]);
      plant(`src/${folder}/planted-down.ts`, [target('core')]);
    }
  });
  plant('src/unlisted-folder/planted.ts', [target('core')]);
  plant('src/core/planted-to-unlisted.ts', ['src/unlisted-folder/planted.ts']);
  plant('servers/alpha/tools.ts');
  plant('servers/beta/tools.ts', ['servers/alpha/tools.ts', 'servers/shared/helper.ts']);
  plant('servers/shared/helper.ts');
  plant('servers/shared/planted-up.ts', ['servers/alpha/tools.ts']);
  plant('src/runner/planted-server.ts', ['servers/alpha/tools.ts']);
  // The justified exceptions are narrow: the named pair passes, another target from that file fails.
  plant('src/eval/state/run-state-checks.ts');
  plant('src/tasks/verify.ts', ['src/eval/state/run-state-checks.ts', target('eval')]);
  plant('servers/alpha/smoke.ts');
  plant('src/mcp/smoke-tests.ts', ['servers/alpha/smoke.ts', 'servers/alpha/tools.ts']);
  const cli = path.join(repoRoot, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  const result = spawnSync(process.execPath, [cli, 'src', 'servers', '--config', configPath, '--output-type', 'json'], { cwd: dir, encoding: 'utf8' });
  expect(result.stdout, result.stderr).not.toBe('');
  violations = (JSON.parse(result.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('import rules on planted imports', () => {
  it('reports an upward import from every folder of every layer', () => {
    const missed = layers
      .slice(0, -1)
      .flatMap((layer, index) => layer.filter((folder) => reported(`src/${folder}/planted-up.ts`, target(layers[index + 1]?.[0] as string)).length === 0));
    expect(missed).toEqual([]);
  });

  it('allows every folder to import the bottom layer', () => {
    const flagged = layers.flat().filter((folder) => reported(`src/${folder}/planted-down.ts`, target('core')).length > 0);
    expect(flagged).toEqual([]);
  });

  it('fails a folder that is in no layer, importing or imported', () => {
    expect(reported('src/unlisted-folder/planted.ts', target('core'))).toContain('folder-in-a-layer');
    expect(reported('src/core/planted-to-unlisted.ts', 'src/unlisted-folder/planted.ts')).toContain('folder-in-a-layer');
  });

  it('keeps servers apart from each other and from the harness', () => {
    expect(reported('servers/beta/tools.ts', 'servers/alpha/tools.ts')).toContain('servers-not-each-other');
    expect(reported('servers/beta/tools.ts', 'servers/shared/helper.ts')).toEqual([]);
    expect(reported('servers/shared/planted-up.ts', 'servers/alpha/tools.ts')).toContain('servers-shared-not-servers');
    expect(reported('src/runner/planted-server.ts', 'servers/alpha/tools.ts')).toContain('host-not-servers');
  });

  it('lets a justified exception through for its named pair only', () => {
    expect(reported('src/tasks/verify.ts', 'src/eval/state/run-state-checks.ts')).toEqual([]);
    expect(reported('src/tasks/verify.ts', target('eval'))).toContain('tasks-not-upward');
    expect(reported('src/mcp/smoke-tests.ts', 'servers/alpha/smoke.ts')).toEqual([]);
    expect(reported('src/mcp/smoke-tests.ts', 'servers/alpha/tools.ts')).toContain('host-not-servers');
  });
});
