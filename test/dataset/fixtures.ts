// A small copy of the published dataset for the hub fake: the real task and GT files (the shared
// copies, kept in git like JSON on the Hub) and real photos (LFS) under real task ids, one a JPEG
// named .png, one under the id the GT misspells. Undefined when the shared data or photos are absent.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sharedAssetsDir, sharedDataDir } from '../support/shared-assets.js';
import { partFileFor } from '../../src/dataset/layout.js';
import type { FakeDatasetFile } from './hub-fake.js';

export const repo = 'EtaYang10th/Open-M3-Bench';
export const commit = 'c0ffee0000000000000000000000000000000001';

export function datasetFiles(): FakeDatasetFile[] | undefined {
  const data = sharedDataDir();
  const assets = sharedAssetsDir();
  if (!data || !assets) return undefined;
  const photo = (name: string) => readFileSync(path.join(assets, 'images', 'detection', name));
  return [
    { path: '.gitattributes', bytes: Buffer.from('*.png filter=lfs diff=lfs merge=lfs -text\n'), lfs: false },
    { path: 'README.md', bytes: Buffer.from('# M3-Bench Image Assets\n'), lfs: false },
    { path: 'json/test_mcp_GT.json', bytes: readFileSync(path.join(data, 'test_mcp_GT.json')), lfs: false },
    { path: 'json/tasks_fuzzy.json', bytes: readFileSync(path.join(data, 'tasks_fuzzy.json')), lfs: false },
    { path: 'images/00010000.png', bytes: photo('coffee_cup.png'), lfs: true },
    { path: 'images/00010002.png', bytes: photo('stop_sign.jpg'), lfs: true },
    { path: 'images/00020000.png', bytes: photo('astronaut.png'), lfs: true },
    { path: 'images/00040002.png', bytes: photo('eagle.jpg'), lfs: true },
  ];
}

export function tempLayout(): { root: string; jsonDir: string; imageDir: string; lockFile: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'm3-dataset-'));
  const jsonDir = path.join(root, 'json');
  return { root, jsonDir, imageDir: path.join(root, 'images'), lockFile: path.join(jsonDir, 'm3bench-dataset.lock.json') };
}

export const missingDataMessage = 'shared data or photos not found (../shared/data/m3bench, ../shared/assets): the dataset pull tests need them';

/** Where a pull keeps the resumable temp file of the listed image `repoPath` (src/dataset/layout.ts). */
export function imagePartFile(layout: { jsonDir: string; imageDir: string }, repoPath: string): string {
  const file = { path: repoPath, size: undefined, sha256: undefined, gitBlob: undefined, lfs: false };
  return partFileFor({ file, kind: 'image', target: '' }, layout);
}
