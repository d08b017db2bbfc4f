// media/assets.json: valid, complete (the model and every shared photo) and in sync with the
// shared MANIFEST.json through tools/build-asset-manifest.ts; schema errors name file and field.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AssetError, defaultManifestFile, loadAssetManifest, parseAssetManifest } from '../../src/assets/index.js';
import { buildAssetManifest, rawGithubUrl } from '../../tools/build-asset-manifest.js';
import { assertAssetsInCi, loadSharedManifest, missingAssetsMessage, sharedAssetsDir } from '../support/shared-assets.js';

describe('the committed asset manifest', () => {
  const manifest = loadAssetManifest();

  it('records the YOLOX-Nano model with its exact-copy url, the official url and a note', () => {
    const model = manifest.assets.find((asset) => asset.name === 'yolox-nano');
    expect(model).toMatchObject({
      kind: 'model',
      path: 'models/yolox_nano.onnx',
      mirrorPath: 'models/yolox_nano.onnx',
      sha256: 'e8af074932d4ed7e232278e3055cefcdea3edf178874a3694ae292649fb464dd',
      officialUrl: 'https://github.com/Megvii-BaseDetection/YOLOX/releases/download/0.1.1rc0/yolox_nano.onnx',
    });
    expect(model?.url).toBe(rawGithubUrl(model?.source.repo ?? '', model?.source.commit ?? '', model?.source.path ?? ''));
    expect(model?.url).toMatch(/^https:\/\/raw\.githubusercontent\.com\/Bigisland1729\/object-detection-models\/[0-9a-f]{40}\/yolox_nano\.onnx$/);
    expect(model?.note).toMatch(/may differ byte-wise/);
  });

  it('gives every image a name from its folder, a pinned raw url and a license', () => {
    const images = manifest.assets.filter((asset) => asset.kind === 'image');
    expect(images.length).toBeGreaterThanOrEqual(50);
    for (const image of images) {
      expect(image.name).toBe(image.path.replace(/^images\//, '').replace(/\.[^.]+$/, ''));
      expect(image.url).toBe(rawGithubUrl(image.source.repo, image.source.commit, image.source.path));
      expect(image.license.length).toBeGreaterThan(3);
    }
  });

  it('rejects bad entries with the file and the JSON path of the field', () => {
    const raw = JSON.parse(readFileSync(defaultManifestFile, 'utf8')) as { assets: Array<Record<string, unknown>> };
    const first = raw.assets[0] ?? {};
    const broken = { ...raw, assets: [{ ...first, path: '../escape.onnx', sha256: 'XYZ' }, first] };
    const error = (() => {
      try {
        parseAssetManifest(broken, 'assets.json');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(AssetError);
    const message = (error as Error).message;
    expect(message).toContain('assets.json: at $.assets[0].path: expected a relative path without ".." segments');
    expect(message).toContain('assets.json: at $.assets[0].sha256: expected a sha256 as 64 lower-case hex digits');
    expect(message).toContain('assets.json: at $.assets[1].name: duplicate name "yolox-nano"');
  });
});

assertAssetsInCi();
const shared = sharedAssetsDir();

describe.skipIf(!shared)(`manifest vs the shared assets${shared ? '' : ` (skipped: ${missingAssetsMessage})`}`, () => {
  it('is what tools/build-asset-manifest.ts builds from the shared MANIFEST.json', () => {
    expect(buildAssetManifest(loadSharedManifest())).toEqual(loadAssetManifest());
  });

  it('lists every photo of the shared detection, ocr and barcode folders', () => {
    const listed = new Set(loadAssetManifest().assets.map((asset) => asset.mirrorPath));
    for (const folder of ['detection', 'ocr', 'barcode']) {
      const files = readdirSync(path.join(shared ?? '', 'images', folder));
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) expect(listed.has(`images/${folder}/${file}`), file).toBe(true);
    }
  });
});
