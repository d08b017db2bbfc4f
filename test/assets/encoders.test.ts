// media/encoders.json (the reference text encoders) and the "unverified" marker: the file is in
// sync with src/assets/encoders.ts, every file is pinned to a Hugging Face commit, the entries
// without a public pin are exactly the three bge config files, and an unverified asset is pulled
// with its observed sha256 reported and verified as "unverified", never "ok".
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assetPath,
  buildEncoderManifest,
  encoderManifestFile,
  loadAssetManifest,
  parseAssetManifest,
  pullAssets,
  UNVERIFIED,
  verifyAssets,
} from '../../src/assets/index.js';

describe('media/encoders.json', () => {
  const manifest = loadAssetManifest(encoderManifestFile);

  it('is what tools/build-encoder-manifest.ts writes from src/assets/encoders.ts', () => {
    expect(buildEncoderManifest()).toEqual(manifest);
  });

  it('pins every file to a Hugging Face commit, under models/encoders/, with a license', () => {
    expect(manifest.assets.length).toBe(14);
    for (const asset of manifest.assets) {
      expect(asset.url).toBe(`https://huggingface.co/${asset.source.repo}/resolve/${asset.source.commit}/${asset.source.path}`);
      expect(asset.source.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(asset.path.startsWith('models/encoders/')).toBe(true);
      expect(asset.license).toMatch(/Apache-2\.0|MIT/);
    }
    const minilm = manifest.assets.find((asset) => asset.name === 'encoders/all-minilm-l6-v2/onnx/model.onnx');
    expect(minilm).toMatchObject({ sha256: '6fd5d72fe4589f189f8ebc006442dbb529bb7ce38f8082112682524616046452', bytes: 90_405_214 });
  });

  it('declares unverified exactly the bge files with no public pin', () => {
    const unverified = manifest.assets.filter((asset) => asset.sha256 === UNVERIFIED).map((asset) => asset.name);
    expect(unverified).toEqual([
      'encoders/bge-small-en-v1.5/modules.json',
      'encoders/bge-small-en-v1.5/sentence_bert_config.json',
      'encoders/bge-small-en-v1.5/1_pooling/config.json',
    ]);
  });
});

describe('unverified assets', () => {
  it('are pulled with the observed sha256 reported, verified as "unverified", and resolvable by assetPath', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'm3-unverified-'));
    const mirror = path.join(root, 'mirror');
    const bytes = randomBytes(333);
    mkdirSync(path.join(mirror, 'models'), { recursive: true });
    writeFileSync(path.join(mirror, 'models', 'config.json'), bytes);
    const manifest = parseAssetManifest(
      {
        version: 1,
        description: 'test',
        assets: [
          {
            name: 'loose',
            kind: 'model',
            path: 'models/config.json',
            mirrorPath: 'models/config.json',
            url: 'https://example.invalid/config.json',
            sha256: UNVERIFIED,
            bytes: UNVERIFIED,
            license: 'CC0',
            source: { repo: 'example/repo', path: 'config.json', commit: 'b'.repeat(40) },
            description: 'a file without a pinned hash',
          },
        ],
      },
      'test manifest',
    );
    const target = path.join(root, 'target');
    const [pulled] = await pullAssets({ manifest, targetDir: target, mirror });
    expect(pulled).toMatchObject({ action: 'copied', bytes: 333, unverifiedSha256: createHash('sha256').update(bytes).digest('hex') });
    const [check] = await verifyAssets({ manifest, targetDir: target });
    expect(check?.status).toBe('unverified');
    expect(check?.actualSha256).toBe(pulled?.unverifiedSha256);
    expect(assetPath('loose', { manifest, targetDir: target })).toBe(path.join(target, 'models', 'config.json'));
  });
});
