// The import graph's rules (.dependency-cruiser.cjs): no circle, no folder imports a layer above
// its own, servers share only servers/shared, src/core, the asset locator and the zod issue
// formatter. Runs dependency-cruiser over the real sources.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-assets.js';

describe('import rules', () => {
  it('finds no circle and no upward import in src/ and servers/', () => {
    const cli = path.join(repoRoot, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
    const result = spawnSync(process.execPath, [cli, 'src', 'servers', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
  }, 120_000);
});
