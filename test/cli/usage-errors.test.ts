// Usage errors of the real `m3` CLI (a child process from source): an unknown option is one line
// on stderr naming it and the nearest valid option of that command, exit status 2 (bad input, as
// `m3 --help` says), never the whole help; a missing argument is one line and 2 as well; help and
// version still exit 0.
import { describe, expect, it } from 'vitest';
import { nearestOption } from '../../src/cli/m3-command.js';
import { runM3 } from '../support/m3-child.js';

describe('m3 usage errors', () => {
  it('an unknown option: one line, the nearest valid option, exit 2', async () => {
    const typo = await runM3(['run', '--resuls-dir', 'x']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe("m3 run: unknown option '--resuls-dir'; the nearest valid option is --results-dir (m3 run --help lists them)\n");
    expect(typo.stdout).toBe('');
    const nested = await runM3(['runs', 'images', 'r1', '--jsn']);
    expect([nested.code, nested.stderr.trim().split('\n').length]).toEqual([2, 1]);
    expect(nested.stderr).toContain("unknown option '--jsn'; the nearest valid option is --json");
  }, 120_000);

  it('a missing argument is one line and exit 2; --help and --version exit 0', async () => {
    const missing = await runM3(['runs', 'images']);
    expect([missing.code, missing.stderr]).toEqual([2, "m3 runs images: missing required argument 'run-id'\n"]);
    expect((await runM3(['run', '--help'])).code).toBe(0);
    expect((await runM3(['--version'])).code).toBe(0);
  }, 120_000);

  it('names the nearest option even when no close match exists', () => {
    expect(nearestOption('--out', ['--help', '--output-dir', '--json'])).toBe('--output-dir');
    expect(nearestOption('--concurency=4', ['--help', '--concurrency', '--tasks'])).toBe('--concurrency');
    expect(nearestOption('--zzzzzz', ['--help', '--json'])).toBeDefined();
  });
});
