// A loopback fake of the Hugging Face Hub's dataset URLs (servers/shared/http-fake.ts): the
// revision info, the paginated tree listing (Link: rel="next"), `resolve` for files kept in git
// (answered directly, ETag = git blob id) and for LFS files (302 to a second fake on another
// port, the "CDN", with X-Linked-Etag = sha256 and X-Linked-Size), Range requests on both.
// Tests switch faults on per file: corrupted bytes, a slow body, a server that ignores Range.
import { createHash } from 'node:crypto';
import net from 'node:net';
import { afterEach } from 'vitest';
import { startHttpFake, type FakeReply, type HttpFake, type RecordedRequest } from '../../servers/shared/http-fake.js';

export interface FakeDatasetFile {
  path: string;
  bytes: Buffer;
  lfs: boolean;
}

export interface HubFakeOptions {
  repo: string;
  commit: string;
  files: FakeDatasetFile[];
  /** Tree entries per page (default: all on one page). */
  pageSize?: number;
  /** Leave `lfs` and `oid` out of the listing, as a bare mirror might. */
  bareListing?: boolean;
}

export interface HubFake {
  endpoint: string;
  hub: HttpFake;
  cdn: HttpFake;
  /** Per-path faults, changeable between pulls. */
  corrupt: Set<string>;
  slow: Map<string, { chunkBytes: number; intervalMs: number }>;
  ignoreRange: Set<string>;
  close(): Promise<void>;
}

export function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function gitBlobOf(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

function lfsPointer(file: FakeDatasetFile): Buffer {
  return Buffer.from(`version https://git-lfs.github.com/spec/v1\noid sha256:${sha256Of(file.bytes)}\nsize ${file.bytes.length}\n`);
}

function treeEntry(file: FakeDatasetFile, bare: boolean): Record<string, unknown> {
  if (bare) return { type: 'file', path: file.path, size: file.bytes.length };
  const oid = gitBlobOf(file.lfs ? lfsPointer(file) : file.bytes);
  const lfs = file.lfs ? { lfs: { oid: sha256Of(file.bytes), size: file.bytes.length, pointerSize: lfsPointer(file).length } } : {};
  return { type: 'file', oid, size: file.lfs ? lfsPointer(file).length : file.bytes.length, path: file.path, ...lfs };
}

/** The body for one request, honouring `Range: bytes=<start>-` unless told not to. */
function ranged(request: RecordedRequest, bytes: Buffer, headers: Record<string, string>, honourRange: boolean): FakeReply {
  const match = /^bytes=(\d+)-$/.exec(String(request.headers.range ?? ''));
  if (!match || !honourRange) return { status: 200, headers: { 'content-type': 'application/octet-stream', ...headers }, body: bytes };
  const start = Number(match[1]);
  if (start >= bytes.length) return { status: 416, headers: { 'content-range': `bytes */${bytes.length}` }, body: '' };
  return {
    status: 206,
    headers: { 'content-type': 'application/octet-stream', 'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}`, ...headers },
    body: bytes.subarray(start),
  };
}

function served(file: FakeDatasetFile, fake: Pick<HubFake, 'corrupt'>): Buffer {
  if (!fake.corrupt.has(file.path)) return file.bytes;
  const copy = Buffer.from(file.bytes);
  copy[Math.floor(copy.length / 2)] = ((copy[Math.floor(copy.length / 2)] ?? 0) + 1) % 256;
  return copy;
}

export async function startHubFake(options: HubFakeOptions): Promise<HubFake> {
  const [hub, cdn] = await Promise.all([startHttpFake(), startHttpFake()]);
  const fake: HubFake = {
    endpoint: hub.url,
    hub,
    cdn,
    corrupt: new Set(),
    slow: new Map(),
    ignoreRange: new Set(),
    close: async () => void (await Promise.all([hub.close(), cdn.close()])),
  };
  const repoPath = `/api/datasets/${options.repo}`;
  const entries = [
    { type: 'directory', oid: 'd'.repeat(40), size: 0, path: 'images' },
    ...options.files.map((file) => treeEntry(file, options.bareListing ?? false)),
  ];
  const pageSize = options.pageSize ?? entries.length;
  const withThrottle = (file: FakeDatasetFile, reply: FakeReply): FakeReply => {
    const throttle = fake.slow.get(file.path);
    return throttle ? { ...reply, throttle } : reply;
  };

  hub.route({ path: new RegExp(`^${repoPath}/revision/[^/]+$`), reply: { body: { id: options.repo, sha: options.commit } } });
  hub.route({
    path: new RegExp(`^${repoPath}/tree/[^/]+$`),
    reply: (request) => {
      const page = Number(request.query.cursor ?? 0);
      const next: Record<string, string> =
        (page + 1) * pageSize < entries.length ? { link: `<${hub.url}${request.path}?recursive=true&cursor=${page + 1}>; rel="next"` } : {};
      return { headers: next, body: entries.slice(page * pageSize, (page + 1) * pageSize) };
    },
  });
  hub.route({
    path: new RegExp(`^/datasets/${options.repo}/resolve/`),
    reply: (request) => {
      const filePath = decodeURIComponent(request.path.replace(/^\/datasets\/[^/]+\/[^/]+\/resolve\/[^/]+\//, ''));
      const file = options.files.find((entry) => entry.path === filePath);
      if (!file) return { status: 404, body: { error: `Entry not found: ${filePath}` } };
      const common = { 'x-repo-commit': options.commit };
      if (file.lfs) {
        const sha = sha256Of(file.bytes);
        return {
          status: 302,
          headers: { ...common, location: `${cdn.url}/blobs/${sha}`, 'x-linked-etag': `"${sha}"`, 'x-linked-size': String(file.bytes.length) },
          body: '',
        };
      }
      return withThrottle(file, ranged(request, served(file, fake), { ...common, etag: `"${gitBlobOf(file.bytes)}"` }, !fake.ignoreRange.has(file.path)));
    },
  });
  cdn.route({
    path: /^\/blobs\/[0-9a-f]{64}$/,
    reply: (request) => {
      const file = options.files.find((entry) => entry.lfs && `/blobs/${sha256Of(entry.bytes)}` === request.path);
      if (!file) return { status: 404, body: 'no such blob' };
      return withThrottle(file, ranged(request, served(file, fake), {}, !fake.ignoreRange.has(file.path)));
    },
  });
  return fake;
}

/** A loopback port nothing listens on (bound, then released), for "connection refused". */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts fakes for one test file and closes each after its test. */
export function hubFakes(): (options: HubFakeOptions) => Promise<HubFake> {
  const open: HubFake[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((fake) => fake.close()));
  });
  return async (options) => {
    const fake = await startHubFake(options);
    open.push(fake);
    return fake;
  };
}
