// Hostile files handed to the CLI (issue 30, minors): a YAML alias bomb in a benchmark file and a
// damaged run store end with a typed error naming the file and the way out, exit 2, not an
// uncaught ReferenceError or a raw SqliteError with exit 1. `m3` runs in the test's process, its
// thrown error mapped to stderr and the exit status as main.ts maps it (run-child.ts).
import { closeSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { runM3, taskFolder } from './run-child.js';

const folder = taskFolder('broken-inputs', [{ id: 'b1', image: 'none.png' }]);
afterAll(() => rmSync(folder.dir, { recursive: true, force: true }));

/** A store with its schema, then every page from `fromByte` on overwritten with garbage. */
function damagedStore(name: string, fromByte: number): string {
  const file = path.join(folder.dir, name);
  openStore(file).close();
  const size = statSync(file).size;
  const handle = openSync(file, 'r+');
  try {
    writeSync(handle, Buffer.alloc(size - fromByte, 0x5a), 0, size - fromByte, fromByte);
  } finally {
    closeSync(handle);
  }
  return file;
}

describe('hostile input files', () => {
  it('a YAML alias bomb in a benchmark file: a config error naming the file, exit 2', async () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let level = 1; level < 9; level += 1) {
      const previous = String.fromCharCode(96 + level);
      const next = String.fromCharCode(97 + level);
      levels.push(`${next}: &${next} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    const bomb = path.join(folder.dir, 'bomb.yaml');
    writeFileSync(bomb, `kind: llm\nspec:\n  name: x\n  type: openai\n  config:\n    model_name: m\n    ${levels.join('\n    ')}\n`);
    const result = await runM3(['bench', bomb], {});
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`${bomb}: document 1: the YAML cannot be expanded`);
    expect(result.stderr).not.toContain('ReferenceError');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);

  it('a damaged store: m3 runs list and m3 run --resume name the file and the way out, exit 2', async () => {
    const malformed = damagedStore('malformed.sqlite', 4096);
    const notDatabase = damagedStore('not-a-database.sqlite', 0);
    for (const file of [malformed, notDatabase]) {
      const listed = await runM3(['runs', 'list', '--store', file], {});
      expect(listed.code, listed.stderr).toBe(2);
      expect(listed.stderr).toContain(`run store ${file} is damaged`);
      expect(listed.stderr).toContain(`mv ${file} ${file}.damaged`);
      expect(listed.stderr).not.toContain('SqliteError');
    }
    const args = folder.args.map((arg) => (arg.endsWith('m3bench.sqlite') ? malformed : arg));
    const resumed = await runM3(['run', '--model', 'replay:gt', ...args, '--run-id', 'broken', '--resume'], {});
    expect(resumed.code, resumed.stderr).toBe(2);
    expect(resumed.stderr).toContain(`run store ${malformed} is damaged`);
    expect(resumed.stderr).not.toContain('SqliteError');
  }, 180_000);
});
