// Moving one asset onto disk: from an offline mirror or over HTTP (http-download.ts, shared with
// the dataset pull). Both stream into a temp file next to the target while hashing, and rename
// only when the sha256 matches, so a half-written or wrong file never sits at the asset's path.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ContentHasher } from './content-hash.js';
import { DownloadError, downloadVerified, networkReason } from './http-download.js';
import { AssetError, expectedBytes, UNVERIFIED, type Asset } from './manifest.js';

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** True when `file` exists with the asset's size and sha256 (size first: it is free); unpinned parts are not compared. */
export async function hasExpectedContent(file: string, asset: Asset): Promise<boolean> {
  if (!existsSync(file)) return false;
  const info = await stat(file);
  const bytes = expectedBytes(asset);
  if (!info.isFile() || (bytes !== undefined && info.size !== bytes)) return false;
  return asset.sha256 === UNVERIFIED || (await sha256File(file)) === asset.sha256;
}

function mismatchError(asset: Asset, origin: string, actual: { sha256: string; bytes: number }, fix: string): AssetError {
  return new AssetError(
    `asset "${asset.name}": sha256 mismatch for ${origin}: expected ${asset.sha256}, got ${actual.sha256} ` +
      `(${actual.bytes} bytes, expected ${asset.bytes}); the file was not placed. ${fix}`,
  );
}

/** What a transfer placed: its size and the sha256 seen (to pin an unverified entry). */
export interface Placed {
  bytes: number;
  sha256: string;
}

async function placeVerified(source: Readable, asset: Asset, target: string, origin: string, fix: string): Promise<Placed> {
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.part-${process.pid}-${randomBytes(4).toString('hex')}`;
  const hasher = new ContentHasher();
  try {
    await pipeline(source, hasher.tap(), createWriteStream(temp));
    const actual = hasher.digest();
    const sizeWrong = expectedBytes(asset) !== undefined && actual.bytes !== expectedBytes(asset);
    if ((asset.sha256 !== UNVERIFIED && actual.sha256 !== asset.sha256) || sizeWrong) throw mismatchError(asset, origin, actual, fix);
    await rename(temp, target);
    return { bytes: actual.bytes, sha256: actual.sha256 };
  } finally {
    await rm(temp, { force: true });
  }
}

/** Copies `<mirror>/<mirrorPath>` to `target` after checking its hash. */
export async function copyFromMirror(asset: Asset, mirror: string, target: string): Promise<Placed> {
  const source = path.resolve(mirror, asset.mirrorPath);
  if (!existsSync(source)) {
    throw new AssetError(
      `asset "${asset.name}": not found in the offline mirror at ${source} (mirror ${path.resolve(mirror)}); ` +
        `point M3_ASSET_MIRROR (or --mirror) at a directory laid out like ../shared/assets, or unset it to download from ${asset.url}`,
    );
  }
  return placeVerified(
    createReadStream(source),
    asset,
    target,
    `mirror file ${source}`,
    'The mirror copy is corrupted or a different version: replace it, or unset M3_ASSET_MIRROR to download the original.',
  );
}

export interface DownloadOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** Downloads `asset.url` (streamed, never buffered whole) to `target` after checking its hash. */
export async function downloadAsset(asset: Asset, target: string, options: DownloadOptions = {}): Promise<Placed> {
  const offlineHint = 'check the network, or set M3_ASSET_MIRROR (or --mirror) to an offline copy such as ../shared/assets';
  const size = expectedBytes(asset);
  try {
    const result = await downloadVerified({
      url: asset.url,
      target,
      // A pinned sha256 decides (a size difference shows up as a sha256 mismatch); an unverified
      // entry is checked by its size when the manifest states one.
      expected: asset.sha256 !== UNVERIFIED ? { sha256: asset.sha256 } : size === undefined ? {} : { bytes: size },
      resume: false,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      timeoutMs: options.timeoutMs ?? 300_000,
    });
    return { bytes: result.bytes, sha256: result.sha256 };
  } catch (error) {
    if (!(error instanceof DownloadError)) throw error;
    if (error.kind === 'mismatch' && error.actual) {
      throw mismatchError(
        asset,
        `download from ${asset.url}`,
        error.actual,
        'The upstream file changed or the transfer was corrupted: retry, or use an offline mirror (M3_ASSET_MIRROR).',
      );
    }
    if (error.kind === 'http') {
      throw new AssetError(`asset "${asset.name}": download from ${asset.url} answered HTTP ${error.status ?? '?'}; ${offlineHint}`, { cause: error });
    }
    const reason = error.cause === undefined ? error.message : networkReason(error.cause);
    throw new AssetError(`asset "${asset.name}": download from ${asset.url} failed (${reason}); ${offlineHint}`, { cause: error });
  }
}
