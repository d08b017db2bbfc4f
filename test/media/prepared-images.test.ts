// The prepared-image cache: the same bytes under the same policy are prepared once, every caller
// gets its own part object with its own source, a failure is never kept, and the size bound
// pushes the least recently used payload out. prepareImage through the cache gives the bytes it
// gave without one (the uncached result is computed here with a distinct policy key). The full
// decode that precedes every preparation (raw pixels, not sharp's stats()) still refuses a cut
// body and still tells an alpha channel that shows from one that is 255 everywhere.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ImagePart } from '../../src/core/content.js';
import { prepareImage } from '../../src/media/prepare-image.js';
import { createPreparedImages } from '../../src/media/prepared-images.js';

const part = (data: string): ImagePart => ({
  type: 'image',
  mediaType: 'image/png',
  data,
  facts: { source: 'first', originalBytes: 1, originalMediaType: 'image/png', width: 1, height: 1, sentBytes: 1 },
});

describe('createPreparedImages', () => {
  it('prepares the same bytes and policy once, and hands each caller its own part with its source', async () => {
    const cache = createPreparedImages();
    let calls = 0;
    const prepare = async () => {
      calls += 1;
      return part('AAAA');
    };
    const bytes = Buffer.from('same bytes');
    const [a, b] = await Promise.all([cache(bytes, 'p', 'a.png', prepare), cache(bytes, 'p', 'b.png', prepare)]);
    const c = await cache(Buffer.from('same bytes'), 'p', 'c.png', prepare);
    expect(calls).toBe(1);
    expect([a.facts?.source, b.facts?.source, c.facts?.source]).toEqual(['a.png', 'b.png', 'c.png']);
    expect(new Set([a, b, c]).size).toBe(3);
    expect(a.data).toBe('AAAA');
    await cache(bytes, 'other policy', 'd.png', prepare);
    await cache(Buffer.from('other bytes'), 'p', 'e.png', prepare);
    expect(calls).toBe(3);
  });

  it('keeps no failure: the next caller prepares again, for its own error', async () => {
    const cache = createPreparedImages();
    let calls = 0;
    const failing = async (): Promise<ImagePart> => {
      calls += 1;
      throw new Error(`failed ${calls}`);
    };
    const bytes = Buffer.from('bad');
    await expect(cache(bytes, 'p', 'a', failing)).rejects.toThrow('failed 1');
    await expect(cache(bytes, 'p', 'b', failing)).rejects.toThrow('failed 2');
    const ok = await cache(bytes, 'p', 'c', async () => part('BB'));
    expect(ok.data).toBe('BB');
  });

  it('drops the least recently used payload past its size bound, and never keeps one above the entry bound', async () => {
    const cache = createPreparedImages({ maxCachedChars: 8, maxEntryChars: 6 });
    const calls = new Map<string, number>();
    const get = (name: string, data: string) =>
      cache(Buffer.from(name), 'p', name, async () => {
        calls.set(name, (calls.get(name) ?? 0) + 1);
        return part(data);
      });
    await get('x', 'xxxx');
    await get('y', 'yyyy');
    await get('x', 'xxxx'); // x is now the most recently used
    await get('z', 'zzzz'); // 12 chars > 8: y goes
    await get('x', 'xxxx');
    await get('y', 'yyyy');
    await get('big', 'bbbbbbb');
    await get('big', 'bbbbbbb');
    expect(Object.fromEntries(calls)).toEqual({ x: 1, y: 2, z: 1, big: 2 });
  });
});

describe('prepareImage through the cache', () => {
  it('gives the same payload as a preparation of its own, with each call its own source', async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#d9d9d9' } })
      .composite([{ input: Buffer.from('<svg width="300" height="200"><text x="20" y="100" font-size="30">cached</text></svg>') }])
      .png()
      .toBuffer();
    const policy = { recodeOverKb: 512, maxEdge: 1568, transport: { vendor: 'generic' as const, accepts: ['image/png', 'image/jpeg'] } };
    const first = await prepareImage(png, 'first.png', policy);
    const again = await prepareImage(Buffer.from(png), 'again.png', policy);
    // Another policy key with the same meaning: a preparation of its own.
    const own = await prepareImage(png, 'own.png', { ...policy, transport: { accepts: policy.transport.accepts, vendor: 'generic' as const } });
    expect(again).not.toBe(first);
    expect(again.facts?.source).toBe('again.png');
    expect({ ...again, facts: { ...again.facts, source: 'x' } }).toEqual({ ...own, facts: { ...own.facts, source: 'x' } });
    expect({ ...first, facts: { ...first.facts, source: 'x' } }).toEqual({ ...own, facts: { ...own.facts, source: 'x' } });
  });
});

describe('the full decode before any preparation', () => {
  const policy = { recodeOverKb: 512, maxEdge: 1568, transport: { vendor: 'generic' as const, accepts: ['image/png', 'image/jpeg'] } };
  const noisy = (channels: 3 | 4, opaque: boolean) => {
    const raw = Buffer.alloc(120 * 90 * channels);
    for (let at = 0; at < raw.length; at += 1) raw[at] = channels === 4 && at % 4 === 3 ? (opaque || at !== 7 ? 255 : 254) : (at * 7919) % 251;
    // Stored uncompressed, the file is never the smallest candidate: the payload is a re-encode.
    return sharp(raw, { raw: { width: 120, height: 90, channels } })
      .png({ compressionLevel: 0 })
      .toBuffer();
  };

  it('refuses a PNG whose body is cut, with or without an alpha channel', async () => {
    for (const channels of [3, 4] as const) {
      const png = await noisy(channels, true);
      const cut = png.subarray(0, Math.floor(png.length * 0.6));
      await expect(prepareImage(cut, `cut-${channels}.png`, policy)).rejects.toThrow(new RegExp(`cut-${channels}\\.png: corrupt or unreadable image/png`));
    }
  });

  it('sees transparency in one pixel of 254, and none in an alpha channel of 255 only', async () => {
    const decoded = async (bytes: Buffer) => {
      const part = await prepareImage(bytes, 'alpha.png', policy);
      return sharp(Buffer.from(part.data, 'base64')).metadata();
    };
    expect((await decoded(await noisy(4, false))).hasAlpha).toBe(true);
    expect((await decoded(await noisy(4, true))).hasAlpha).toBe(false);
  });
});
