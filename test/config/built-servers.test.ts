// Our servers start from a compiled dist/ entry only when it is newer than every source file,
// and the configured arguments stay what the file says (only what the host launches changes).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServersConfig } from '../../src/config/servers.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'm3-built-servers-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(relative: string, mtimeSec: number): void {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '// test\n');
  utimesSync(file, mtimeSec, mtimeSec);
}

const config = {
  servers: {
    math: { command: 'node', args: ['--import', 'tsx', 'servers/math/index.ts'] },
    other: { command: 'python', args: ['servers/x.py'] },
  },
};
const load = (preferBuilt?: boolean) =>
  parseServersConfig(config, path.join(root, 'mcp_servers.json'), { env: {}, root, ...(preferBuilt === undefined ? {} : { preferBuilt }) });

describe('servers started from a fresh build', () => {
  it('run from source without a build, from dist/ once it is newer than every source, from source again after an edit', () => {
    write('servers/math/index.ts', 1_000);
    write('src/core/a.ts', 1_000);
    const source = load();
    expect(source[0]).toMatchObject({ runsFrom: 'source', args: ['--import', 'tsx', path.join(root, 'servers/math/index.ts')] });
    expect(source[0]?.launchArgs).toBeUndefined();
    expect(source[1]?.runsFrom).toBeUndefined();

    write('dist/servers/math/index.js', 2_000);
    const built = load();
    expect(built[0]).toMatchObject({ runsFrom: 'dist', launchArgs: [path.join(root, 'dist/servers/math/index.js')] });
    expect(built[0]?.args).toEqual(source[0]?.args);
    expect(built[1]?.launchArgs).toBeUndefined();
    expect(load(false)[0]?.launchArgs).toBeUndefined();

    write('src/core/a.ts', 3_000);
    expect(load()[0]).toMatchObject({ runsFrom: 'source' });
    expect(load()[0]?.launchArgs).toBeUndefined();
  });
});
