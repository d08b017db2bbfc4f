// `m3 dataset pull` against a hostile hub (a raw node:http server on 127.0.0.1 whose answers each
// test writes): listed names that clash with the bundled suite, the lock file and the pull's own
// temp files; a file with a git blob id but no size; wrong and huge Content-Length; an endless
// body; endless listing pages; two pulls into one folder; and HF_ENDPOINT with user:password@.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatasetError, DatasetPullError, pullDataset, type DatasetPullOptions } from '../../src/dataset/index.js';
import { checkLockedFiles, loadLockFile } from '../../src/dataset/lock-file.js';
import { tempLayout } from '../dataset/fixtures.js';
import { runM3 } from './run-child.js';

const repo = 'hostile/dataset';
const commit = 'c0ffee0000000000000000000000000000000002';

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

interface Listed {
  path: string;
  size?: number;
  oid?: string;
}

interface HostileHub {
  url: string;
  listingRequests: number;
  close(): Promise<void>;
}

const open: HostileHub[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((hub) => hub.close()));
});

function gitBlobOf(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Serves `files` (path → handler) with a listing of `listed`; `endlessPages` answers rel="next" forever. */
async function startHostileHub(listed: Listed[], files: Record<string, Handler>, endlessPages = false): Promise<HostileHub> {
  const hub = { url: '', listingRequests: 0, close: async () => undefined } as HostileHub;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith(`/api/datasets/${repo}/revision/`)) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sha: commit }));
    } else if (url.pathname.startsWith(`/api/datasets/${repo}/tree/`)) {
      hub.listingRequests += 1;
      const page = Number(url.searchParams.get('cursor') ?? 0);
      const link = endlessPages ? { link: `<${hub.url}${url.pathname}?recursive=true&cursor=${page + 1}>; rel="next"` } : {};
      const entries = endlessPages ? [{ type: 'file', path: `images/p${page}.png`, size: 1 }] : listed.map((entry) => ({ type: 'file', ...entry }));
      response.writeHead(200, { 'content-type': 'application/json', ...link }).end(JSON.stringify(entries));
    } else {
      const file = decodeURIComponent(url.pathname.replace(new RegExp(`^/datasets/${repo}/resolve/[^/]+/`), ''));
      const handler = files[file];
      if (handler) handler(request, response);
      else response.writeHead(404).end('no such file');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  hub.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  open.push(hub);
  return hub;
}

/** Answers the bytes in one piece, with an ETag naming their git blob id. */
const plain =
  (bytes: Buffer, etag = gitBlobOf(bytes)): Handler =>
  (_request, response) =>
    void response.writeHead(200, { 'content-length': String(bytes.length), etag: `"${etag}"` }).end(bytes);

function optionsFor(hub: HostileHub, layout: ReturnType<typeof tempLayout>, extra: Partial<DatasetPullOptions> = {}): DatasetPullOptions {
  return { repo, revision: 'main', endpoint: hub.url, layout: { jsonDir: layout.jsonDir, imageDir: layout.imageDir }, concurrency: 1, ...extra };
}

const listedOf = (file: string, bytes: Buffer): Listed => ({ path: file, size: bytes.length, oid: gitBlobOf(bytes) });

describe('dataset pull against a hostile hub', () => {
  it('never places a listed JSON file over the bundled suite, a tracked file or the lock file', async () => {
    const layout = tempLayout();
    mkdirSync(layout.jsonDir, { recursive: true });
    const tracked = { 'm3_local_GT.json': '{"tracked":"gt"}', 'm3_local_tasks.json': '{"tracked":"tasks"}', 'tasks_fuzzy.json': '{"mine":1}' };
    for (const [name, text] of Object.entries(tracked)) writeFileSync(path.join(layout.jsonDir, name), text);
    const hostile = Buffer.from('{"hostile":true}');
    const names = ['m3_local_GT.json', 'json/m3_local_tasks.json', 'm3bench-dataset.lock.json', 'json/tasks_fuzzy.json'];
    const hub = await startHostileHub(
      names.map((name) => listedOf(name, hostile)),
      Object.fromEntries(names.map((name) => [name, plain(hostile)])),
    );
    const error = await pullDataset(optionsFor(hub, layout)).catch((caught: unknown) => caught);
    for (const [name, text] of Object.entries(tracked)) expect(readFileSync(path.join(layout.jsonDir, name), 'utf8')).toBe(text);
    // The extra names land in a folder of their own; the file the user had at tasks_fuzzy.json is refused, not replaced.
    expect(readdirSync(path.join(layout.jsonDir, 'dataset-extra')).sort()).toEqual(['m3_local_GT.json', 'm3_local_tasks.json', 'm3bench-dataset.lock.json']);
    expect(error).toBeInstanceOf(DatasetPullError);
    expect((error as DatasetPullError).message).toContain('json/tasks_fuzzy.json: ');
    expect((error as DatasetPullError).message).toContain('no earlier pull placed it');
    const lock = loadLockFile(layout.lockFile);
    expect(lock?.repo).toBe(repo);
    expect((await checkLockedFiles(layout.lockFile, lock ?? ({ files: [] } as never))).map((check) => check.status)).toEqual(['ok', 'ok', 'ok']);
  });

  it('a listed `.part` name cannot be the temp file of another listed file: both land with their own bytes, as the lock says', async () => {
    const layout = tempLayout();
    const image = Buffer.alloc(4000, 1);
    const impostor = Buffer.alloc(1000, 2);
    const hub = await startHostileHub([listedOf('images/ok.png.part', impostor), listedOf('images/ok.png', image)], {
      'images/ok.png.part': plain(impostor),
      'images/ok.png': plain(image),
    });
    const result = await pullDataset(optionsFor(hub, layout));
    expect(result.files.map((file) => file.action)).toEqual(['downloaded', 'downloaded']);
    expect(readFileSync(path.join(layout.imageDir, 'ok.png')).equals(image)).toBe(true);
    expect(readFileSync(path.join(layout.imageDir, 'ok.png.part')).equals(impostor)).toBe(true);
    const lock = loadLockFile(layout.lockFile);
    expect(lock?.files.find((entry) => entry.path === 'images/ok.png')?.sha256).toBe(sha256Of(image));
    expect((await checkLockedFiles(layout.lockFile, lock ?? ({ files: [] } as never))).every((check) => check.status === 'ok')).toBe(true);
  });

  it('a git blob id without a size is still checked (a corrupted file is refused); with nothing to check the lock says `nothing`', async () => {
    const layout = tempLayout();
    const good = Buffer.from('{"tasks":[]}');
    const served = Buffer.from('{"tasks":[1]}');
    const bare = Buffer.alloc(300, 5);
    const hub = await startHostileHub([{ path: 'json/tasks_fuzzy.json', oid: gitBlobOf(good) }, { path: 'images/bare.png' }], {
      'json/tasks_fuzzy.json': (_request, response) => void response.writeHead(200).end(served),
      'images/bare.png': (_request, response) => void response.writeHead(200).end(bare),
    });
    const error = (await pullDataset(optionsFor(hub, layout)).catch((caught: unknown) => caught)) as DatasetPullError;
    expect(error).toBeInstanceOf(DatasetPullError);
    expect(error.message).toContain(`json/tasks_fuzzy.json: git blob id expected ${gitBlobOf(good)}, got ${gitBlobOf(served)}`);
    expect(existsSync(path.join(layout.jsonDir, 'tasks_fuzzy.json'))).toBe(false);
    expect(loadLockFile(layout.lockFile)?.files.map((entry) => [entry.path, entry.checkedAgainst])).toEqual([['images/bare.png', 'nothing']]);
  });

  it('refuses a Content-Length other than the listed size before writing, and stops an endless body one byte past it', async () => {
    const layout = tempLayout();
    const listed = Buffer.alloc(1000, 3);
    const hub = await startHostileHub([listedOf('images/huge.png', listed), listedOf('images/endless.png', listed), listedOf('images/short.png', listed)], {
      // 10 GB announced, then bytes forever.
      'images/huge.png': (_request, response) => {
        response.writeHead(200, { 'content-length': String(10 * 1024 ** 3) });
        const timer = setInterval(() => {
          response.write(Buffer.alloc(65_536, 9));
        }, 5);
        response.on('close', () => clearInterval(timer));
      },
      // No length at all, and no end.
      'images/endless.png': (_request, response) => {
        response.writeHead(200);
        const timer = setInterval(() => {
          response.write(Buffer.alloc(65_536, 9));
        }, 5);
        response.on('close', () => clearInterval(timer));
      },
      'images/short.png': (_request, response) => void response.writeHead(200, { 'content-length': '10' }).end(Buffer.alloc(10)),
    });
    const error = (await pullDataset(optionsFor(hub, layout)).catch((caught: unknown) => caught)) as DatasetPullError;
    expect(error).toBeInstanceOf(DatasetPullError);
    expect(error.message).toContain('images/huge.png: ');
    expect(error.message).toContain(`announced ${10 * 1024 ** 3} bytes where the expected 1000 bytes were allowed; nothing was written`);
    expect(error.message).toContain('images/short.png: ');
    expect(error.message).toContain('announced 10 bytes where the expected 1000 bytes were allowed');
    expect(error.message).toContain('images/endless.png: ');
    expect(error.message).toContain('sent more than 1000 bytes; the download was cut off');
    // Nothing placed, no temp file kept.
    expect(readdirSync(layout.imageDir)).toEqual([]);
  });

  it('stops an endless listing at the page limit with a clear error', async () => {
    const layout = tempLayout();
    const hub = await startHostileHub([], {}, true);
    const error = await pullDataset(optionsFor(hub, layout, { listingLimits: { pages: 25, entries: 1000, pageBytes: 1024 * 1024 } })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as Error).message).toMatch(/^listing of hostile\/dataset: the hub answered more than 25 pages \(last page http:\/\/127\.0\.0\.1:\d+\//);
    expect(hub.listingRequests).toBe(25);
    expect(existsSync(layout.jsonDir)).toBe(false);
  });

  it('refuses a second pull into the same folder while the first runs', async () => {
    const layout = tempLayout();
    const bytes = Buffer.alloc(2000, 4);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started: () => void = () => undefined;
    const firstIsDownloading = new Promise<void>((resolve) => (started = resolve));
    const hub = await startHostileHub([listedOf('images/slow.png', bytes)], {
      'images/slow.png': (_request, response) => {
        response.writeHead(200, { 'content-length': String(bytes.length) });
        response.write(bytes.subarray(0, 1000));
        started();
        void gate.then(() => response.end(bytes.subarray(1000)));
      },
    });
    const first = pullDataset(optionsFor(hub, layout));
    await firstIsDownloading;
    const second = await pullDataset(optionsFor(hub, layout)).catch((caught: unknown) => caught);
    release();
    expect(second).toBeInstanceOf(DatasetError);
    expect((second as Error).message).toContain(`another m3 dataset pull (pid ${process.pid}) is writing into ${layout.jsonDir}`);
    expect((await first).files.map((file) => file.action)).toEqual(['downloaded']);
    expect(readFileSync(path.join(layout.imageDir, 'slow.png')).equals(bytes)).toBe(true);
  });

  it('HF_ENDPOINT with user:password@ says what is wrong without printing the password', async () => {
    const layout = tempLayout();
    const result = await runM3(['dataset', 'pull', '--dest', layout.jsonDir, '--image-dir', layout.imageDir], {
      HF_ENDPOINT: 'http://alice:pw-Zq81-hidden@127.0.0.1:9/',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('HF_ENDPOINT carries credentials (user:password@127.0.0.1:9)');
    expect(result.stderr).toContain('set HF_ENDPOINT to http://127.0.0.1:9 and put the access token in HF_TOKEN');
    expect(result.stderr).not.toContain('offline');
    expect(`${result.stdout}${result.stderr}`).not.toContain('pw-Zq81-hidden');
  });
});
