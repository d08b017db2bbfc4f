// Which test files share a worker process (test/support/process-sharing.ts), and the check that
// keeps a shared process clean between files (test/support/shared-process-guard.ts), run by a
// real Vitest child on planted files: a file that leaves process.env, the working directory or
// a global behind fails, the file after it in the same process starts clean.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesSharingAProcess, ownProcessReason } from '../support/process-sharing.js';
import { repoRoot } from '../support/shared-assets.js';

function planted(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-sharing-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('which files share a process', () => {
  it('gives a file its own process for what it changes, for a helper of test/ that does, and for its marker', () => {
    const dir = planted({
      'test/env.test.ts': "it('x', () => { process.env.FOO = '1'; });\n",
      'test/env-index.test.ts': "process.env['FOO'] = '1';\n",
      'test/mock.test.ts': "vi.mock('../src/x.js');\n",
      'test/signal.test.ts': "process.on('SIGINT', () => {});\n",
      'test/pdf.test.ts': "import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';\n",
      'test/marked.test.ts': '// @own-process: the model stays loaded\n',
      'test/reads.test.ts': "if (process.env.FOO === '1') process.stdout.write('x');\n",
      'test/support/leaky.ts': 'export const set = () => { delete process.env.FOO; };\n',
      'test/support/indirect.ts': "export { set } from './leaky.js';\n",
      'test/support/careful.ts': '// @restores-process-state: puts FOO back after each call\nprocess.env.FOO = "1";\n',
      'test/uses-leaky.test.ts': "import { set } from './support/indirect.js';\n",
      'test/uses-careful.test.ts': "import { run } from './support/careful.js';\n",
      'test/uses-outside.test.ts': "import { x } from '../src/env-writer.js';\n",
      'src/env-writer.ts': 'process.env.FOO = "1";\n',
    });
    const reason = (file: string) => ownProcessReason(path.join(dir, file));
    expect(reason('test/env.test.ts')).toBe('writes process.env');
    expect(reason('test/env-index.test.ts')).toBe('writes process.env');
    expect(reason('test/mock.test.ts')).toBe('mocks, stubs or fakes timers');
    expect(reason('test/signal.test.ts')).toBe('changes process-wide state');
    expect(reason('test/pdf.test.ts')).toMatch(/pdfjs-dist/);
    expect(reason('test/marked.test.ts')).toBe('the model stays loaded');
    expect(reason('test/uses-leaky.test.ts')).toBe('writes process.env (leaky.ts) (indirect.ts)');
    expect(reason('test/reads.test.ts')).toBeUndefined();
    expect(reason('test/uses-careful.test.ts')).toBeUndefined();
    // Only helpers of test/ are followed: src/ is the code under test, loaded by every file alike.
    expect(reason('test/uses-outside.test.ts')).toBeUndefined();
    expect(filesSharingAProcess(dir)).toEqual(['test/reads.test.ts', 'test/uses-careful.test.ts', 'test/uses-outside.test.ts']);
  });

  it("shares more than half of the repository's test files, only real ones, and not the one that reads PDFs", () => {
    const all = (readdirSync(path.join(repoRoot, 'test'), { recursive: true }) as string[])
      .filter((file) => file.endsWith('.test.ts') && !file.endsWith('.live.test.ts'))
      .map((file) => `test/${file.split(path.sep).join('/')}`);
    const sharing = filesSharingAProcess(repoRoot);
    expect(sharing.length).toBeGreaterThan(all.length / 2);
    expect(sharing.every((file) => all.includes(file))).toBe(true);
    expect(sharing).not.toContain('test/report/report-html.test.ts');
  });
});

describe('the shared-process guard', () => {
  it('fails the file that leaves state behind and starts the next one clean', () => {
    const guard = path.join(repoRoot, 'test/support/shared-process-guard.ts');
    const dir = planted({
      'vitest.config.mjs': `export default { test: { globals: true, include: ['*.test.mjs'], pool: 'forks', maxWorkers: 1, isolate: false, setupFiles: [${JSON.stringify(guard)}], sequence: { sequencer: class { async shard(f) { return f; } async sort(f) { return [...f].sort((a, b) => a.moduleId.localeCompare(b.moduleId)); } } } } };\n`,
      'a-leaves.test.mjs': "it('leaves', () => { process.env.M3_PLANTED = '1'; globalThis.plantedGlobal = 1; process.chdir('/'); });\n",
      'b-clean.test.mjs':
        "it('starts clean', () => { expect(process.env.M3_PLANTED).toBeUndefined(); expect('plantedGlobal' in globalThis).toBe(false); expect(process.cwd()).not.toBe('/'); });\n",
    });
    const vitest = path.join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');
    const result = spawnSync(process.execPath, [vitest, 'run', '--root', dir, '--config', path.join(dir, 'vitest.config.mjs')], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    const output = `${result.stdout}\n${result.stderr}`;
    expect(result.status, output).toBe(1);
    expect(output).toMatch(/FAIL\s+a-leaves\.test\.mjs/);
    expect(output).toMatch(/left behind a changed process\.env\.M3_PLANTED; the working directory \/; new globals \(plantedGlobal\)/);
    expect(output).toMatch(/✓ b-clean\.test\.mjs|b-clean\.test\.mjs \(1 test\)/);
    expect(output).toMatch(/Test Files\s+1 failed \| 1 passed \(2\)/);
  });
});
