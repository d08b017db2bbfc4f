// Moving one asset onto disk: from an offline mirror or over HTTP. Both stream into a temp
// file next to the target while hashing, and rename only when the sha256 matches, so a
// half-written or wrong file never sits at the asset's path.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
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

/** What a transfer placed: its size and the sha256 seen (to pin an unverified entry). */
export interface Placed {
  bytes: number;
  sha256: string;
}

async function placeVerified(source: Readable, asset: Asset, target: string, origin: string, fix: string): Promise<Placed> {
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.part-${process.pid}-${randomBytes(4).toString('hex')}`;
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  try {
    await pipeline(source, tap, createWriteStream(temp));
    const actual = hash.digest('hex');
    const sizeWrong = expectedBytes(asset) !== undefined && bytes !== expectedBytes(asset);
    if ((asset.sha256 !== UNVERIFIED && actual !== asset.sha256) || sizeWrong) {
      throw new AssetError(
        `asset "${asset.name}": sha256 mismatch for ${origin}: expected ${asset.sha256}, got ${actual} ` +
          `(${bytes} bytes, expected ${asset.bytes}); the file was not placed. ${fix}`,
      );
    }
    await rename(temp, target);
    return { bytes, sha256: actual };
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
  const fetchImpl = options.fetch ?? fetch;
  const offlineHint = 'check the network, or set M3_ASSET_MIRROR (or --mirror) to an offline copy such as ../shared/assets';
  let response: Response;
  try {
    response = await fetchImpl(asset.url, { signal: AbortSignal.timeout(options.timeoutMs ?? 300_000), redirect: 'follow' });
  } catch (error) {
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new AssetError(`asset "${asset.name}": download from ${asset.url} failed (${reason}); ${offlineHint}`, { cause: error });
  }
  if (!response.ok || !response.body) {
    throw new AssetError(`asset "${asset.name}": download from ${asset.url} answered HTTP ${response.status} ${response.statusText}; ${offlineHint}`);
  }
  return placeVerified(
    Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>),
    asset,
    target,
    `download from ${asset.url}`,
    'The upstream file changed or the transfer was corrupted: retry, or use an offline mirror (M3_ASSET_MIRROR).',
  );
}
