// The linkimage-mcp server as a real child process against a loopback fake of the Unsplash API:
// every GT page URL resolves to its photo id, the metadata request carries the access key as a
// Client-ID header (never in the URL), the full image comes back as image content saved in the
// workspace, the download is reported, and failures are typed or in the reference's words. The
// API answer names the real hosts (images.unsplash.com, api.unsplash.com), as Unsplash's does:
// the server reaches them through their M3_UPSTREAM_* overrides (the child runs under the
// loopback network guard, so a URL fetched as given fails), and the key goes to the API only.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sharedAssetsDir } from '../../support/shared-assets.js';
import { groundTruthCalls, loadFixture, missingSharedData, useWebServer } from '../../support/keyed-web-server.js';

const KEY = 'unsplash-access-key-6e0b2d';
let jpeg: Buffer;

const web = useWebServer('linkimage', {
  routes: async () => {
    // A real photo from the shared assets when they are there, else a generated JPEG.
    const assets = sharedAssetsDir();
    const folder = assets ? path.join(assets, 'images', 'detection') : '';
    const real = folder && existsSync(folder) ? readdirSync(folder).find((name) => /\.jpe?g$/i.test(name)) : undefined;
    jpeg = real
      ? readFileSync(path.join(folder, real))
      : await sharp({ create: { width: 40, height: 30, channels: 3, background: '#246' } })
          .jpeg()
          .toBuffer();
    return [
      {
        path: /^\/photos\/[^/]+$/,
        reply: (request) => ({
          body: JSON.parse(JSON.stringify(loadFixture('linkimage', 'photo')).replaceAll('8Rk1DqL_Lkc', request.path.split('/').at(-1) ?? '')),
        }),
      },
      { path: /^\/img\/photo-/, reply: { body: jpeg, headers: { 'content-type': 'image/jpeg' } } },
      { path: /^\/photos\/[^/]+\/download$/, reply: { body: { url: 'https://images.unsplash.com/photo-1' } } },
    ];
  },
  env: (url) => ({ UNSPLASH_ACCESS_KEY: KEY, M3_UPSTREAM_UNSPLASH_URL: url, M3_UPSTREAM_UNSPLASH_IMAGES_URL: `${url}/img`, M3_HTTP_TIMEOUT_MS: '5000' }),
});
const call = (args: Record<string, unknown>) => web.call('fetch_unsplash_image', args);

describe('linkimage-mcp/fetch_unsplash_image', () => {
  it('answers every GT call: photo id from the page URL, key as Client-ID header, the image saved and returned', async (context) => {
    const calls = groundTruthCalls('linkimage-mcp/fetch_unsplash_image');
    if (!calls) return context.skip(missingSharedData);
    expect(calls.length).toBe(7);
    for (const { arguments: args } of calls) {
      const answer = await call(args);
      expect(answer.isError, answer.text).toBe(false);
      const id = String(args.url).split('-').at(-1);
      const metadata = web
        .fake()
        .requestsTo(/^\/photos\/[^/]+$/)
        .at(-1);
      expect(metadata?.path).toBe(`/photos/${id}`);
      expect(metadata?.headers.authorization).toBe(`Client-ID ${KEY}`);
      expect(metadata?.query).toEqual({});
      const result = JSON.parse(answer.text) as { message: string; image_url: string; author: string; saved_path: string };
      expect(answer.text).toBe(
        `{"message": "Downloaded 'Porto Shooter' photo successfully.", "image_url": "${result.image_url}", "author": "Porto Shooter", "saved_path": "${result.saved_path}"}`,
      );
      expect(result.image_url).toBe(`https://images.unsplash.com/photo-${id}?ixid=test&ixlib=rb-4.0.3&q=85&fm=jpg`);
      const photo = web
        .fake()
        .requestsTo(/^\/img\/photo-/)
        .at(-1);
      expect(photo?.path).toBe(`/img/photo-${id}`);
      expect(photo?.headers.authorization).toBeUndefined();
      expect(path.basename(result.saved_path)).toBe(`unsplash_${id}.jpg`);
      expect(readFileSync(result.saved_path).equals(jpeg)).toBe(true);
      expect(answer.images).toEqual([{ type: 'image', data: jpeg.toString('base64'), mimeType: 'image/jpeg' }]);
      const reported = web
        .fake()
        .requestsTo(/\/download$/)
        .at(-1);
      expect(reported?.query).toEqual({ ixid: 'test' });
      expect(reported?.headers.authorization).toBe(`Client-ID ${KEY}`);
    }
  });

  it('sends the key to the API origin only: a download_location on another host gets no Authorization header', async () => {
    const other = web.fake().url.replace('127.0.0.1', 'localhost');
    const photo = loadFixture<Record<string, unknown>>('linkimage', 'photo');
    web.fake().queueFault(/^\/photos\/[^/]+$/, { body: { ...photo, links: { download_location: `${other}/collect?ixid=elsewhere` } } });
    web.fake().route({ path: '/collect', reply: { body: {} } });
    const answer = await call({ url: 'https://unsplash.com/photos/boat-8Rk1DqL_Lkc' });
    expect(answer.isError, answer.text).toBe(false);
    const collected = web.fake().requestsTo('/collect').at(-1);
    expect(collected?.query).toEqual({ ixid: 'elsewhere' });
    expect(collected?.headers.authorization).toBeUndefined();
  });

  it('an unknown photo is an ordinary error in the reference words; a refused key, 429 and a broken image are typed', async () => {
    web.fake().queueFault(/^\/photos\/[^/]+$/, { status: 404, body: { errors: ["Couldn't find Photo"] } });
    const missing = await call({ url: 'https://unsplash.com/photos/nothing-here-AAAAAAAAAAA' });
    expect([missing.isError, missing.meta, missing.text]).toEqual([true, undefined, '{"error": "Failed to fetch photo metadata. HTTP 404"}']);
    web.fake().queueFault(/^\/photos\/[^/]+$/, { status: 401, body: { errors: [`OAuth error: The access token is invalid (${KEY})`] } });
    const refused = await call({ url: 'https://unsplash.com/photos/x-AAAAAAAAAAA' });
    expect(refused.meta).toMatchObject({ code: 'upstream_auth', status: 401 });
    expect(refused.text).toBe('{"error": "Failed to fetch photo metadata. HTTP 401"}');
    web.fake().queueFault(/^\/photos\/[^/]+$/, { status: 403, body: 'Rate Limit Exceeded' });
    expect((await call({ url: 'https://unsplash.com/photos/x-AAAAAAAAAAA' })).meta?.code).toBe('upstream_auth');
    web.fake().queueFault(/^\/photos\/[^/]+$/, { status: 429, headers: { 'retry-after': '3600' }, body: 'Rate Limit Exceeded' });
    expect((await call({ url: 'https://unsplash.com/photos/x-AAAAAAAAAAA' })).meta?.code).toBe('upstream_rate_limited');
    web.fake().queueFault(/^\/img\//, { body: '<html>expired</html>', headers: { 'content-type': 'text/html' } });
    expect((await call({ url: 'https://unsplash.com/photos/x-AAAAAAAAAAA' })).meta?.code).toBe('upstream_bad_response');
  });

  it('no result and no stderr line contained the access key', () => {
    for (const text of web.texts) expect(text).not.toContain(KEY);
    expect(web.server().stderr()).not.toContain(KEY);
  });
});
