// Pull and verify: bring the manifest's assets into the assets directory, and check what is
// there. Every asset is attempted even when one fails, so one run reports every problem.
import { existsSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { AssetError, defaultAssetsDir, expectedBytes, loadAssetManifest, selectAssets, UNVERIFIED, type Asset, type AssetManifest } from './manifest.js';
import { copyFromMirror, downloadAsset, hasExpectedContent, sha256File } from './transfer.js';

export interface AssetLocation {
  /** Defaults to media/assets.json. */
  manifest?: AssetManifest;
  /** Where assets land; defaults to media/assets/. */
  targetDir?: string;
}

type PullAction = 'present' | 'copied' | 'downloaded' | 'failed';

export interface PullResult {
  name: string;
  action: PullAction;
  target: string;
  bytes: number;
  /** The sha256 of what was placed, for assets whose manifest entry is not pinned yet. */
  unverifiedSha256?: string;
  error?: string;
}

export interface PullOptions extends AssetLocation {
  names?: readonly string[];
  /** Offline mirror laid out like ../shared/assets; empty or undefined means download. */
  mirror?: string;
  /** Fetch again even when a good copy is present (the old copy stays until the new one verifies). */
  force?: boolean;
  onProgress?: (result: PullResult, index: number, total: number) => void;
  fetch?: typeof fetch;
}

/**
 * Thrown after all assets were attempted; `results` has every outcome.
 * @internal Exported for its tests.
 */
export class AssetPullError extends AssetError {
  readonly results: PullResult[];
  constructor(results: PullResult[]) {
    const failed = results.filter((result) => result.action === 'failed');
    super(`${failed.length} of ${results.length} asset(s) could not be pulled:\n  ${failed.map((result) => result.error).join('\n  ')}`);
    this.results = results;
  }
}

async function pullOne(asset: Asset, target: string, options: PullOptions): Promise<PullResult> {
  const base = { name: asset.name, target };
  try {
    if (!options.force && (await hasExpectedContent(target, asset))) return { ...base, action: 'present', bytes: (await stat(target)).size };
    const action = options.mirror ? 'copied' : 'downloaded';
    const placed = options.mirror
      ? await copyFromMirror(asset, options.mirror, target)
      : await downloadAsset(asset, target, options.fetch ? { fetch: options.fetch } : {});
    return { ...base, action, bytes: placed.bytes, ...(asset.sha256 === UNVERIFIED ? { unverifiedSha256: placed.sha256 } : {}) };
  } catch (error) {
    if (!(error instanceof AssetError)) throw error;
    return { ...base, action: 'failed', bytes: 0, error: error.message };
  }
}

export async function pullAssets(options: PullOptions = {}): Promise<PullResult[]> {
  const manifest = options.manifest ?? loadAssetManifest();
  const targetDir = options.targetDir ?? defaultAssetsDir;
  const assets = selectAssets(manifest, options.names);
  const results: PullResult[] = [];
  for (const [index, asset] of assets.entries()) {
    const result = await pullOne(asset, path.join(targetDir, asset.path), options);
    results.push(result);
    options.onProgress?.(result, index, assets.length);
  }
  if (results.some((result) => result.action === 'failed')) throw new AssetPullError(results);
  return results;
}

/** `unverified`: present, but the manifest pins no sha256 (or size) to compare with. */
type AssetStatus = 'ok' | 'missing' | 'mismatch' | 'unverified';

export interface AssetCheck {
  name: string;
  path: string;
  status: AssetStatus;
  expectedSha256: string;
  actualSha256?: string;
  expectedBytes: number | 'unverified';
  actualBytes?: number;
}

export async function verifyAssets(options: AssetLocation & { names?: readonly string[] } = {}): Promise<AssetCheck[]> {
  const manifest = options.manifest ?? loadAssetManifest();
  const targetDir = options.targetDir ?? defaultAssetsDir;
  const checks: AssetCheck[] = [];
  for (const asset of selectAssets(manifest, options.names)) {
    const file = path.join(targetDir, asset.path);
    const base = { name: asset.name, path: file, expectedSha256: asset.sha256, expectedBytes: asset.bytes };
    if (!existsSync(file)) {
      checks.push({ ...base, status: 'missing' });
      continue;
    }
    const actualSha256 = await sha256File(file);
    const actualBytes = (await stat(file)).size;
    const sizeWrong = expectedBytes(asset) !== undefined && actualBytes !== expectedBytes(asset);
    const shaPinned = asset.sha256 !== UNVERIFIED;
    const status: AssetStatus = sizeWrong || (shaPinned && actualSha256 !== asset.sha256) ? 'mismatch' : shaPinned ? 'ok' : 'unverified';
    checks.push({ ...base, status, actualSha256, actualBytes });
  }
  return checks;
}

/**
 * Absolute path of a pulled asset, for servers and tasks. Checks presence and size (cheap);
 * the full hash check is `m3 assets verify`.
 */
export function assetPath(name: string, options: AssetLocation = {}): string {
  const manifest = options.manifest ?? loadAssetManifest();
  const asset = manifest.assets.find((entry) => entry.name === name);
  if (!asset) throw new AssetError(`unknown asset "${name}"; see \`m3 assets list\` for the names in media/assets.json`);
  const file = path.join(options.targetDir ?? defaultAssetsDir, asset.path);
  const offline = 'offline, set M3_ASSET_MIRROR=../shared/assets (or pass --mirror) first';
  if (!existsSync(file)) {
    throw new AssetError(`asset "${name}" is not pulled: expected ${file}; run \`m3 assets pull ${name}\` (${offline})`);
  }
  const size = statSync(file).size;
  if (expectedBytes(asset) !== undefined && size !== asset.bytes) {
    throw new AssetError(`asset "${name}" at ${file} has ${size} bytes, expected ${asset.bytes}; run \`m3 assets pull --force ${name}\``);
  }
  return file;
}
