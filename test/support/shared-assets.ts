// Locates the read-only shared assets (real photos, the YOLOX model) for tests.
// CI sets M3_ASSET_MIRROR to ../shared/assets; locally the same sibling folder is used.
// When absent, vision tests skip with a message naming M3_ASSET_MIRROR; in CI they must run.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function sharedAssetsDir(): string | undefined {
  const candidates = [process.env.M3_ASSET_MIRROR, path.resolve(repoRoot, '../shared/assets')].filter((value): value is string => Boolean(value));
  return candidates.map((candidate) => path.resolve(repoRoot, candidate)).find((dir) => existsSync(path.join(dir, 'MANIFEST.json')));
}

export function sharedDataDir(): string | undefined {
  const dir = path.resolve(repoRoot, '../shared/data/m3bench');
  return existsSync(path.join(dir, 'test_mcp_GT.json')) ? dir : undefined;
}

export const missingAssetsMessage = 'shared assets not found: set M3_ASSET_MIRROR to the assets mirror (e.g. ../shared/assets) to run the vision tests';

/** In CI a missing mirror is a failure, not a skip. */
export function assertAssetsInCi(): void {
  if (process.env.CI && !sharedAssetsDir()) throw new Error(missingAssetsMessage);
}

export function loadSharedManifest(): Record<string, unknown> | undefined {
  const dir = sharedAssetsDir();
  if (!dir) return undefined;
  return JSON.parse(readFileSync(path.join(dir, 'MANIFEST.json'), 'utf8')) as Record<string, unknown>;
}
