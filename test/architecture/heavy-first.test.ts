// The suite's file order (test/support/heavy-first-sequencer.ts): without recorded durations the
// listed pipeline files start first, in the list's order, and every other file keeps Vitest's
// own order (largest first); a file with a recorded duration is left to Vitest. Every listed
// path exists, so a renamed file cannot silently drop out of the list.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import HeavyFirstSequencer, { startFirst } from '../support/heavy-first-sequencer.js';
import { repoRoot } from '../support/shared-assets.js';

const project = { name: '', config: { sequence: { groupOrder: 0 }, isolate: true } };
const spec = (file: string) => ({ project, moduleId: path.join(repoRoot, file) }) as unknown as TestSpecification;

function sequencer(sizes: Record<string, number>, recorded: string[] = []): HeavyFirstSequencer {
  const ctx = {
    config: { root: repoRoot },
    cache: {
      getFileTestResults: (key: string) => (recorded.includes(key.slice(1)) ? { duration: 1, failed: false } : undefined),
      getFileStats: (key: string) => ({ size: sizes[key.slice(1)] ?? 0 }),
    },
  };
  return new HeavyFirstSequencer(ctx as unknown as Vitest);
}

const order = (specs: TestSpecification[]) => specs.map((entry) => path.relative(repoRoot, entry.moduleId));

describe('heavy-first sequencer', () => {
  it('names only files that exist', () => {
    for (const file of startFirst) expect(existsSync(path.join(repoRoot, file)), file).toBe(true);
  });

  it('starts the listed files first on a fresh clone and keeps the rest largest first', async () => {
    const [first, second] = startFirst as [string, string];
    const sizes = { 'test/a.test.ts': 900, 'test/b.test.ts': 50, [second]: 10, [first]: 20 };
    const sorted = await sequencer(sizes).sort(Object.keys(sizes).map(spec));
    expect(order(sorted)).toEqual([first, second, 'test/a.test.ts', 'test/b.test.ts']);
  });

  it('leaves a listed file with a recorded duration to Vitest', async () => {
    const [first, second] = startFirst as [string, string];
    const sizes = { 'test/a.test.ts': 900, [second]: 10, [first]: 20 };
    const sorted = await sequencer(sizes, [first]).sort(Object.keys(sizes).map(spec));
    expect(order(sorted)[0]).toBe(second);
  });
});
