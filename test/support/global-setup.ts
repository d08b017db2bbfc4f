// Runs once before the test suite: when the shared asset mirror is present, make sure the
// repo's media/assets/ holds the model and photos (copied and sha256-checked by the project's
// own asset manager), so `npm test` works on a fresh clone without a separate pull step; and
// build dist/ when it is stale, so child processes start compiled code (test/support/build-once.ts).
import { pullAssets } from '../../src/assets/index.js';
import { buildOnce } from './build-once.js';
import { sharedAssetsDir } from './shared-assets.js';

// Each project of vitest.config.ts loads and runs its global setup on its own; the work is done
// once for the run, kept on the main process's global object, which the projects share.
const prepared = Symbol.for('m3bench.testSetup');

export default function setup(): Promise<void> {
  const global = globalThis as typeof globalThis & { [prepared]?: Promise<void> };
  global[prepared] ??= prepare();
  return global[prepared];
}

async function prepare(): Promise<void> {
  process.stderr.write(`[test setup] ${await buildOnce()}\n`);
  const mirror = sharedAssetsDir();
  if (!mirror) {
    process.stderr.write('[test setup] no asset mirror found (set M3_ASSET_MIRROR); vision tests will skip\n');
    return;
  }
  const results = await pullAssets({ mirror });
  const copied = results.filter((result) => result.action !== 'present').length;
  if (copied > 0) process.stderr.write(`[test setup] pulled ${copied} asset(s) from ${mirror} into media/assets/\n`);
}
