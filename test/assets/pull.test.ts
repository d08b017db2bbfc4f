// pullAssets / verifyAssets / assetPath on real files: a generated mirror, a real HTTP server
// on 127.0.0.1 for downloads, and (when present) the shared assets with the committed manifest.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssetPullError, assetPath, loadAssetManifest, pullAssets, selectAssets, verifyAssets, type PullResult } from '../../src/assets/index.js';
import { assertAssetsInCi, missingAssetsMessage, sharedAssetsDir } from '../support/shared-assets.js';
import { createAssetFixture, flipByte } from './fixtures.js';

describe('pull from an offline mirror', () => {
  it('copies every asset, then finds them present, and verify reports ok', async () => {
    const fixture = createAssetFixture();
    const events: string[] = [];
    const first = await pullAssets({
      manifest: fixture.manifest,
      targetDir: fixture.target,
      mirror: fixture.mirror,
      onProgress: (result, index, total) => events.push(`${index + 1}/${total} ${result.action} ${result.name}`),
    });
    expect(first.map((result) => result.action)).toEqual(['copied', 'copied', 'copied']);
    expect(events).toEqual(['1/3 copied tiny-model', '2/3 copied detection/one', '3/3 copied detection/two']);
    for (const [name, bytes] of fixture.contents) {
      expect(readFileSync(assetPath(name, { manifest: fixture.manifest, targetDir: fixture.target })).equals(bytes)).toBe(true);
    }
    const second = await pullAssets({ manifest: fixture.manifest, targetDir: fixture.target, mirror: fixture.mirror });
    expect(second.map((result) => result.action)).toEqual(['present', 'present', 'present']);
    const checks = await verifyAssets({ manifest: fixture.manifest, targetDir: fixture.target });
    expect(checks.map((check) => check.status)).toEqual(['ok', 'ok', 'ok']);
  });

  it('verify names a corrupted asset with both hashes; pull repairs it', async () => {
    const fixture = createAssetFixture();
    await pullAssets({ manifest: fixture.manifest, targetDir: fixture.target, mirror: fixture.mirror });
    const file = path.join(fixture.target, 'images/detection/one.jpg');
    writeFileSync(file, flipByte(readFileSync(file)));
    const checks = await verifyAssets({ manifest: fixture.manifest, targetDir: fixture.target });
    const bad = checks.filter((check) => check.status !== 'ok');
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatchObject({
      name: 'detection/one',
      status: 'mismatch',
      path: file,
      expectedSha256: fixture.manifest.assets[1]?.sha256,
      actualBytes: 1500,
    });
    expect(bad[0]?.actualSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(bad[0]?.actualSha256).not.toBe(bad[0]?.expectedSha256);
    const repaired = await pullAssets({ manifest: fixture.manifest, targetDir: fixture.target, mirror: fixture.mirror, names: ['detection/*'] });
    expect(repaired.map((result) => `${result.name}:${result.action}`)).toEqual(['detection/one:copied', 'detection/two:present']);
    expect((await verifyAssets({ manifest: fixture.manifest, targetDir: fixture.target })).every((check) => check.status === 'ok')).toBe(true);
  });

  it('a file missing from the mirror is a clear error naming the asset, the place and the fix; the others are still pulled', async () => {
    const fixture = createAssetFixture();
    rmSync(path.join(fixture.mirror, 'models/tiny.onnx'));
    const error = await pullAssets({ manifest: fixture.manifest, targetDir: fixture.target, mirror: fixture.mirror }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AssetPullError);
    const message = (error as Error).message;
    expect(message).toContain('1 of 3 asset(s) could not be pulled');
    expect(message).toContain(`asset "tiny-model": not found in the offline mirror at ${path.join(fixture.mirror, 'models/tiny.onnx')}`);
    expect(message).toMatch(/M3_ASSET_MIRROR/);
    expect((error as AssetPullError).results.map((result) => result.action)).toEqual(['failed', 'copied', 'copied']);
    expect(existsSync(path.join(fixture.target, 'models/tiny.onnx'))).toBe(false);
  });

  it('a corrupted mirror file is refused before it is placed, naming both hashes', async () => {
    const fixture = createAssetFixture();
    const source = path.join(fixture.mirror, 'images/detection/two.jpg');
    writeFileSync(source, flipByte(readFileSync(source)));
    const error = (await pullAssets({ manifest: fixture.manifest, targetDir: fixture.target, mirror: fixture.mirror, names: ['detection/two'] }).catch(
      (caught: unknown) => caught,
    )) as Error;
    const expected = fixture.manifest.assets[2]?.sha256 ?? '';
    expect(error.message).toMatch(
      new RegExp(
        `asset "detection/two": sha256 mismatch for mirror file .*two\\.jpg: expected ${expected}, got [0-9a-f]{64} \\(2500 bytes, expected 2500\\); the file was not placed`,
      ),
    );
    expect(readdirSync(path.join(fixture.target, 'images/detection'))).toEqual([]); // no file, no temp file
  });

  it('assetPath explains how to get a missing asset and rejects unknown names', () => {
    const fixture = createAssetFixture();
    const options = { manifest: fixture.manifest, targetDir: fixture.target };
    expect(() => assetPath('tiny-model', options)).toThrow(/asset "tiny-model" is not pulled: expected .*tiny\.onnx; run `m3 assets pull tiny-model`/);
    expect(() => assetPath('nope', options)).toThrow(/unknown asset "nope"/);
    expect(() => selectAssets(fixture.manifest, ['detection/*', 'nope', 'x*'])).toThrow(
      /unknown assets "nope", "x\*"; known assets: tiny-model, detection\/one/,
    );
    expect(selectAssets(fixture.manifest, ['detection/two', 'detection/*']).map((asset) => asset.name)).toEqual(['detection/one', 'detection/two']);
  });
});

describe('pull by download (real HTTP on 127.0.0.1)', () => {
  const served = new Map<string, Buffer>();
  let server: http.Server;
  let baseUrl = '';

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const body = served.get(request.url ?? '');
      if (!body) {
        response.writeHead(404).end('not here');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      // Several chunks, so the streamed hashing sees a real stream.
      const step = Math.ceil(body.length / 4);
      for (let offset = 0; offset < body.length; offset += step) response.write(body.subarray(offset, offset + step));
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/assets`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  function serve(fixture: ReturnType<typeof createAssetFixture>, override: Partial<Record<string, Buffer>> = {}): void {
    served.clear();
    for (const asset of fixture.manifest.assets) {
      const bytes = override[asset.name] ?? fixture.contents.get(asset.name);
      if (bytes) served.set(`/assets/${asset.mirrorPath}`, bytes);
    }
  }

  it('downloads, verifies and places every asset', async () => {
    const fixture = createAssetFixture(baseUrl);
    serve(fixture);
    const results = await pullAssets({ manifest: fixture.manifest, targetDir: fixture.target });
    expect(results.map((result: PullResult) => [result.action, result.bytes])).toEqual([
      ['downloaded', 70_000],
      ['downloaded', 1_500],
      ['downloaded', 2_500],
    ]);
    expect((await verifyAssets({ manifest: fixture.manifest, targetDir: fixture.target })).map((check) => check.status)).toEqual(['ok', 'ok', 'ok']);
  });

  it('reports HTTP errors, refused connections and corrupted downloads, and keeps a good copy on a failed --force', async () => {
    const fixture = createAssetFixture(baseUrl);
    serve(fixture);
    await pullAssets({ manifest: fixture.manifest, targetDir: fixture.target, names: ['tiny-model'] });
    const good = readFileSync(path.join(fixture.target, 'models/tiny.onnx'));
    serve(fixture, { 'tiny-model': flipByte(good) });
    served.delete('/assets/images/detection/one.jpg');
    const error = (await pullAssets({ manifest: fixture.manifest, targetDir: fixture.target, force: true }).catch(
      (caught: unknown) => caught,
    )) as AssetPullError;
    expect(error.message).toMatch(/asset "tiny-model": sha256 mismatch for download from http:\/\/127\.0\.0\.1:\d+\/assets\/models\/tiny\.onnx/);
    expect(error.message).toMatch(/asset "detection\/one": download from .* answered HTTP 404 .*M3_ASSET_MIRROR/);
    expect(error.results.map((result) => result.action)).toEqual(['failed', 'failed', 'downloaded']);
    expect(readFileSync(path.join(fixture.target, 'models/tiny.onnx')).equals(good)).toBe(true);

    const closed = createAssetFixture('http://127.0.0.1:9/assets'); // discard port: nothing listens
    const refused = (await pullAssets({ manifest: closed.manifest, targetDir: closed.target, names: ['detection/one'] }).catch(
      (caught: unknown) => caught,
    )) as Error;
    expect(refused.message).toMatch(
      /asset "detection\/one": download from http:\/\/127\.0\.0\.1:9\/assets\/images\/detection\/one\.jpg failed \(.+\); check the network/,
    );
  });
});

assertAssetsInCi();
const shared = sharedAssetsDir();

describe.skipIf(!shared)(`the committed manifest against the shared mirror${shared ? '' : ` (skipped: ${missingAssetsMessage})`}`, () => {
  it('pulls the model and every photo with matching sha256 into a fresh directory', async () => {
    const fixture = createAssetFixture();
    const manifest = loadAssetManifest();
    const results = await pullAssets({ manifest, targetDir: fixture.target, mirror: shared ?? '' });
    expect(results).toHaveLength(manifest.assets.length);
    expect(results.every((result) => result.action === 'copied')).toBe(true);
    const model = assetPath('yolox-nano', { manifest, targetDir: fixture.target });
    expect(model).toBe(path.join(fixture.target, 'models', 'yolox_nano.onnx'));
    const checks = await verifyAssets({ manifest, targetDir: fixture.target, names: ['yolox-nano', 'barcode/*'] });
    expect(checks).toHaveLength(13);
    expect(checks.every((check) => check.status === 'ok')).toBe(true);
  });
});
