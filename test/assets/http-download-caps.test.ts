// downloadVerified's caps, shared with every outbound client (src/core/http-limits.ts), against a
// real HTTP server on 127.0.0.1 that lies: a Content-Length other than the expected size is
// refused before anything is written; a body streamed without a length past the expected size
// (or past the cap) is cut off one byte over it; a redirect loop stops at the shared cap.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DownloadError, downloadVerified } from '../../src/assets/http-download.js';
import { HTTP_LIMITS } from '../../src/core/http-limits.js';

let server: http.Server;
let base = '';
const work = mkdtempSync(path.join(os.tmpdir(), 'm3-download-caps-'));
let sentEndless = 0;
let redirects = 0;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url === '/lying-length') {
      response.writeHead(200, { 'content-length': '10000000000' });
      response.end();
      return;
    }
    if (request.url === '/endless') {
      // No Content-Length: chunked, and it would go on for 64 MiB.
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 7);
      const write = () => {
        while (sentEndless < 64 * 1024 * 1024 && !response.destroyed) {
          sentEndless += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', write);
        }
        response.end();
      };
      write();
      return;
    }
    if (request.url === '/loop') {
      redirects += 1;
      response.writeHead(302, { location: '/loop' }).end();
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<DownloadError> {
  return promise.then(
    () => {
      throw new Error('the download succeeded');
    },
    (error: unknown) => error as DownloadError,
  );
}

describe('download caps', () => {
  it('refuses a Content-Length that differs from the expected size before writing anything', async () => {
    const target = path.join(work, 'a', 'file.bin');
    const error = await failure(downloadVerified({ url: `${base}/lying-length`, target, expected: { bytes: 1000 }, resume: true }));
    expect(error.kind).toBe('too-large');
    expect(error.message).toMatch(/announced 10000000000 bytes where the expected 1000 bytes were allowed/);
    expect(readdirSync(path.dirname(target))).toEqual([]);
  });

  it('cuts a body without a length off one byte past the expected size, keeping no part file', async () => {
    const target = path.join(work, 'b', 'file.bin');
    const error = await failure(downloadVerified({ url: `${base}/endless`, target, expected: { bytes: 1000 }, resume: true }));
    expect(error.kind).toBe('too-large');
    expect(error.message).toMatch(/sent more than 1000 bytes/);
    expect(existsSync(target) || existsSync(`${target}.part`)).toBe(false);
  });

  it('cuts a body off at the caller cap when no size is expected', async () => {
    const target = path.join(work, 'c', 'file.bin');
    const error = await failure(downloadVerified({ url: `${base}/endless`, target, expected: {}, maxBytes: 100_000, resume: false }));
    expect(error.kind).toBe('too-large');
    expect(readdirSync(path.dirname(target))).toEqual([]);
  });

  it('stops a redirect loop at the shared cap', async () => {
    redirects = 0;
    const error = await failure(downloadVerified({ url: `${base}/loop`, target: path.join(work, 'd', 'x'), expected: {}, resume: false }));
    expect(error.kind).toBe('redirects');
    expect(redirects).toBe(HTTP_LIMITS.maxRedirects + 1);
  });
});
