// Where dataset files land and how the Hub's answers are read: pure functions on real inputs.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/config/paths.js';
import { DatasetError } from '../../src/dataset/dataset-error.js';
import { expectedFromHubHeaders, nextPageUrl, type HubFile } from '../../src/dataset/hub-client.js';
import { imageFileFor } from '../../src/dataset/image-check.js';
import { defaultImageDir, planPull, runImageDirFor } from '../../src/dataset/layout.js';

const file = (repoPath: string): HubFile => ({ path: repoPath, size: 1, sha256: undefined, gitBlob: undefined, lfs: false });

describe('dataset layout', () => {
  it('puts images/ under the image dir and JSON under the JSON dir, and skips the rest with a reason', () => {
    const layout = { jsonDir: '/data/json', imageDir: '/data/images' };
    const plan = planPull(
      ['images/a.png', 'images/sub/b.png', 'json/test_mcp_GT.json', 'tasks_fuzzy.json', 'README.md', 'other/x.json', 'images/../../etc/passwd', 'images'].map(
        file,
      ),
      layout,
    );
    expect(plan.files.map((planned) => [planned.file.path, planned.kind, planned.target])).toEqual([
      ['images/a.png', 'image', '/data/images/a.png'],
      ['images/sub/b.png', 'image', path.join('/data/images', 'sub', 'b.png')],
      ['json/test_mcp_GT.json', 'json', '/data/json/test_mcp_GT.json'],
      ['tasks_fuzzy.json', 'json', '/data/json/tasks_fuzzy.json'],
    ]);
    expect(plan.skipped).toEqual([
      { path: 'README.md', reason: 'not task data (only images/ and JSON files are pulled)' },
      { path: 'other/x.json', reason: 'a JSON file outside json/ and the top level' },
      { path: 'images/../../etc/passwd', reason: 'unsafe path (absolute, empty or ".." segment)' },
      { path: 'images', reason: 'not task data (only images/ and JSON files are pulled)' },
    ]);
    expect(() => planPull(['json/a.json', 'a.json'].map(file), layout)).toThrow(DatasetError);
    expect(() => planPull(['json/a.json', 'a.json'].map(file), layout)).toThrow(
      'dataset files "json/a.json" and "a.json" would both land at /data/json/dataset-extra/a.json',
    );
  });

  it("the default image dir is where m3 run resolves the task files' image paths (against the repository root)", () => {
    for (const ref of ['images/00010000.png', './images/00010000.png']) expect(imageFileFor(ref, defaultImageDir)).toBe(path.resolve(repoRoot, ref));
    expect(runImageDirFor(defaultImageDir)).toEqual({});
    expect(runImageDirFor('/data/m3/images')).toEqual({ flag: '/data/m3' });
    expect(runImageDirFor('/data/pics').problem).toMatch(/only in a folder called "images"/);
  });
});

describe('hub answers', () => {
  it('follows rel="next" among several links, relative or absolute', () => {
    const base = 'https://hub.example/api/datasets/o/r/tree/main';
    expect(nextPageUrl('<https://hub.example/api/datasets/o/r/tree/main?cursor=abc>; rel="next"', base)).toBe(
      'https://hub.example/api/datasets/o/r/tree/main?cursor=abc',
    );
    expect(nextPageUrl('</first>; rel="first", </p2?cursor=x>; rel=next', base)).toBe('https://hub.example/p2?cursor=x');
    expect(nextPageUrl('</prev>; rel="prev"', base)).toBeUndefined();
    expect(nextPageUrl(null, base)).toBeUndefined();
  });

  it('reads the linked etag as a sha256 (LFS) or a git blob id, and the linked size', () => {
    const sha = 'a'.repeat(64);
    expect(expectedFromHubHeaders(new Headers({ 'x-linked-etag': `"${sha}"`, 'x-linked-size': '123', etag: 'W/"other"' }))).toEqual({
      sha256: sha,
      bytes: 123,
    });
    expect(expectedFromHubHeaders(new Headers({ etag: `W/"${'b'.repeat(40)}"` }))).toEqual({ gitBlob: 'b'.repeat(40) });
    expect(expectedFromHubHeaders(new Headers({ etag: '"not-a-hash"', 'x-linked-size': 'many' }))).toEqual({});
  });
});
