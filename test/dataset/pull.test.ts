// pullDataset against the loopback hub fake (real HTTP on 127.0.0.1, two ports: hub and CDN):
// pagination, revision pinning, layout, the lock file, the token only on the hub, content
// checks (LFS sha256, git blob id, linked etag), resume from a .part with Range, and offline.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetError, DatasetPullError, pullDataset, type DatasetPullOptions } from '../../src/dataset/index.js';
import { loadLockFile } from '../../src/dataset/lock-file.js';
import { commit, datasetFiles, imagePartFile, missingDataMessage, repo, tempLayout } from './fixtures.js';
import { closedPort, gitBlobOf, hubFakes, sha256Of } from './hub-fake.js';

const files = datasetFiles();
if (!files && process.env.CI) throw new Error(missingDataMessage);
const token = 'hf_test_token_0123456789abcdef';
const startHubFake = hubFakes();

function fileOf(repoPath: string) {
  const file = files?.find((entry) => entry.path === repoPath);
  if (!file) throw new Error(`fixture has no ${repoPath}`);
  return file;
}

async function setUp(extra: { pageSize?: number; bareListing?: boolean } = {}) {
  const fake = await startHubFake({ repo, commit, files: files ?? [], ...extra });
  const layout = tempLayout();
  const options: DatasetPullOptions = {
    repo,
    revision: 'main',
    endpoint: fake.endpoint,
    token,
    layout: { jsonDir: layout.jsonDir, imageDir: layout.imageDir },
    concurrency: 2,
  };
  return { fake, layout, options };
}

describe.skipIf(!files)(`pullDataset${files ? '' : ` (skipped: ${missingDataMessage})`}`, () => {
  it('pins the revision, follows every listing page, places images and JSON, skips the rest, and writes the lock', async () => {
    const { fake, layout, options } = await setUp({ pageSize: 3 });
    const result = await pullDataset(options);
    expect(result.commit).toBe(commit);
    expect(result.files.map((file) => file.action)).toEqual(Array(6).fill('downloaded'));
    expect(result.skipped.map((entry) => entry.path).sort()).toEqual(['.gitattributes', 'README.md']);
    expect(result.missingTaskFiles).toEqual([]);
    // 9 entries (a directory and 8 files) in pages of 3: three listing requests, the last two via Link.
    expect(fake.hub.requestsTo(/\/tree\//).map((request) => request.query.cursor ?? '0')).toEqual(['0', '1', '2']);
    // Every file comes from the pinned commit, not from the moving branch.
    expect(fake.hub.requestsTo(/\/resolve\//).every((request) => request.path.includes(`/resolve/${commit}/`))).toBe(true);
    for (const repoPath of ['images/00010000.png', 'images/00020000.png']) {
      expect(readFileSync(path.join(layout.imageDir, path.basename(repoPath))).equals(fileOf(repoPath).bytes)).toBe(true);
    }
    expect(readFileSync(path.join(layout.jsonDir, 'test_mcp_GT.json')).equals(fileOf('json/test_mcp_GT.json').bytes)).toBe(true);
    expect(existsSync(path.join(layout.jsonDir, 'README.md'))).toBe(false);
    const lock = loadLockFile(layout.lockFile);
    expect(lock).toMatchObject({ repo, revision: 'main', commit, endpoint: fake.endpoint });
    expect(lock?.files.map((entry) => [entry.path, entry.file, entry.checkedAgainst, entry.revision])).toContainEqual([
      'images/00020000.png',
      '../images/00020000.png',
      'lfs-sha256',
      commit,
    ]);
    expect(lock?.files.find((entry) => entry.path === 'json/tasks_fuzzy.json')).toMatchObject({
      checkedAgainst: 'git-blob',
      sha256: sha256Of(fileOf('json/tasks_fuzzy.json').bytes),
      size: fileOf('json/tasks_fuzzy.json').bytes.length,
    });
    expect(JSON.stringify(lock)).not.toContain(token);
  });

  it('sends the token to the hub only: never to the CDN a file redirects to', async () => {
    const { fake, options } = await setUp();
    await pullDataset(options);
    expect(fake.hub.requests.length).toBeGreaterThan(0);
    expect(fake.hub.requests.every((request) => request.headers.authorization === `Bearer ${token}`)).toBe(true);
    expect(fake.cdn.requests).toHaveLength(4);
    expect(fake.cdn.requests.every((request) => request.headers.authorization === undefined)).toBe(true);
  });

  it('keeps files already present with the right content and fetches only what changed', async () => {
    const { fake, layout, options } = await setUp();
    await pullDataset(options);
    const before = loadLockFile(layout.lockFile);
    writeFileSync(path.join(layout.imageDir, '00010000.png'), 'not the photo');
    fake.hub.requests.length = 0;
    fake.cdn.requests.length = 0;
    const again = await pullDataset(options);
    expect(again.files.filter((file) => file.action !== 'present').map((file) => [file.path, file.action])).toEqual([['images/00010000.png', 'downloaded']]);
    expect(fake.cdn.requests.map((request) => request.path)).toEqual([`/blobs/${sha256Of(fileOf('images/00010000.png').bytes)}`]);
    const after = loadLockFile(layout.lockFile);
    expect(after?.files.find((entry) => entry.path === 'json/test_mcp_GT.json')?.time).toBe(
      before?.files.find((entry) => entry.path === 'json/test_mcp_GT.json')?.time,
    );
  });

  it('catches a corrupted LFS file by its sha256 and a corrupted git file by its blob id; neither is placed, the rest is', async () => {
    const { fake, layout, options } = await setUp();
    fake.corrupt.add('images/00020000.png');
    fake.corrupt.add('json/tasks_fuzzy.json');
    const error = (await pullDataset(options).catch((caught: unknown) => caught)) as DatasetPullError;
    expect(error).toBeInstanceOf(DatasetPullError);
    const sha = sha256Of(fileOf('images/00020000.png').bytes);
    expect(error.message).toMatch(
      new RegExp(`images/00020000\\.png: sha256 expected ${sha}, got [0-9a-f]{64} \\(\\d+ bytes received\\); the file was not placed`),
    );
    expect(error.message).toContain(`json/tasks_fuzzy.json: git blob id expected ${gitBlobOf(fileOf('json/tasks_fuzzy.json').bytes)}, got`);
    expect(
      error.result.files
        .filter((file) => file.action === 'failed')
        .map((file) => file.path)
        .sort(),
    ).toEqual(['images/00020000.png', 'json/tasks_fuzzy.json']);
    expect(readdirSync(layout.imageDir).sort()).toEqual(['00010000.png', '00010002.png', '00040002.png']); // no file, no .part (nor its folder)
    expect(existsSync(path.join(layout.jsonDir, 'tasks_fuzzy.json'))).toBe(false);
    expect(loadLockFile(layout.lockFile)?.files.map((entry) => entry.path)).not.toContain('images/00020000.png');
  });

  it('continues a .part with a Range request and checks the whole file; a part that does not fit is restarted', async () => {
    const { fake, layout, options } = await setUp();
    const big = fileOf('images/00020000.png').bytes;
    mkdirSync(path.dirname(imagePartFile(layout, 'images/x.png')), { recursive: true });
    writeFileSync(imagePartFile(layout, 'images/00020000.png'), big.subarray(0, 300_000));
    const garbage = Buffer.alloc(1000, 7);
    writeFileSync(imagePartFile(layout, 'images/00010000.png'), garbage);
    const whole = fileOf('images/00010002.png').bytes;
    writeFileSync(imagePartFile(layout, 'images/00010002.png'), whole);
    const result = await pullDataset(options);
    const outcome = (repoPath: string) => result.files.find((file) => file.path === repoPath)?.action;
    expect(outcome('images/00020000.png')).toBe('resumed');
    expect(outcome('images/00010000.png')).toBe('downloaded');
    expect(outcome('images/00010002.png')).toBe('resumed'); // 416: nothing left to send, the part itself is checked
    const blobRequests = (repoPath: string) => fake.cdn.requestsTo(`/blobs/${sha256Of(fileOf(repoPath).bytes)}`).map((request) => request.headers.range);
    expect(blobRequests('images/00020000.png')).toEqual(['bytes=300000-']);
    expect(blobRequests('images/00010000.png')).toEqual(['bytes=1000-', undefined]); // the bad part failed the check, then a clean start
    expect(blobRequests('images/00010002.png')).toEqual([`bytes=${whole.length}-`]);
    expect(readFileSync(path.join(layout.imageDir, '00010002.png')).equals(whole)).toBe(true);
    expect(readFileSync(path.join(layout.imageDir, '00020000.png')).equals(big)).toBe(true);
    expect(readFileSync(path.join(layout.imageDir, '00010000.png')).equals(fileOf('images/00010000.png').bytes)).toBe(true);
    expect(existsSync(imagePartFile(layout, 'images/00020000.png'))).toBe(false);
  });

  it('starts over when the server ignores Range (200 instead of 206)', async () => {
    const { fake, layout, options } = await setUp();
    fake.ignoreRange.add('images/00020000.png');
    mkdirSync(path.dirname(imagePartFile(layout, 'images/x.png')), { recursive: true });
    writeFileSync(imagePartFile(layout, 'images/00020000.png'), fileOf('images/00020000.png').bytes.subarray(0, 5000));
    const result = await pullDataset(options);
    expect(result.files.find((file) => file.path === 'images/00020000.png')?.action).toBe('downloaded');
    expect(readFileSync(path.join(layout.imageDir, '00020000.png')).equals(fileOf('images/00020000.png').bytes)).toBe(true);
  });

  it('without hashes in the listing, checks each file against the linked etag of its first response', async () => {
    const { fake, layout, options } = await setUp({ bareListing: true });
    fake.corrupt.add('images/00010002.png');
    const error = (await pullDataset(options).catch((caught: unknown) => caught)) as DatasetPullError;
    expect(error.message).toMatch(new RegExp(`images/00010002\\.png: sha256 expected ${sha256Of(fileOf('images/00010002.png').bytes)}, got`));
    const lock = loadLockFile(layout.lockFile);
    expect(lock?.files.find((entry) => entry.path === 'images/00010000.png')?.checkedAgainst).toBe('etag-sha256');
    expect(lock?.files.find((entry) => entry.path === 'json/test_mcp_GT.json')?.checkedAgainst).toBe('git-blob');
  });

  it('offline: a refused connection is the "cannot reach" error naming the host; a dead CDN stops the pull after the hub files', async () => {
    const layout = tempLayout();
    const port = await closedPort();
    const offline = (await pullDataset({ repo, revision: 'main', endpoint: `http://127.0.0.1:${port}`, layout }).catch(
      (caught: unknown) => caught,
    )) as DatasetError;
    expect(offline).toBeInstanceOf(DatasetError);
    expect(offline.kind).toBe('unreachable');
    expect(offline.message).toMatch(
      new RegExp(`^cannot reach 127\\.0\\.0\\.1:${port}: you are offline or it is blocked \\(.*ECONNREFUSED.*\\); the dataset is not bundled with m3bench$`),
    );
    expect(existsSync(layout.lockFile)).toBe(false);

    const { fake, layout: pulled, options } = await setUp();
    await fake.cdn.close();
    const cdnHost = new URL(fake.cdn.url).host;
    const error = (await pullDataset({ ...options, concurrency: 1 }).catch((caught: unknown) => caught)) as DatasetError;
    expect(error.kind).toBe('unreachable');
    expect(error.message).toContain(`cannot reach ${cdnHost}: you are offline or it is blocked`);
    expect(loadLockFile(pulled.lockFile)?.files.map((entry) => entry.path)).toEqual(['json/tasks_fuzzy.json', 'json/test_mcp_GT.json']);
  });
});
