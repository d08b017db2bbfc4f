// The embedding cache file: hits and misses are counted, vectors are keyed by embedder id (stale
// vectors of another embedder are never reused), and the reference's flat format is used only
// when asked for explicitly.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CACHE_FORMAT_TAG, EmbeddingCache, embedTexts } from '../../../src/eval/embed/cache.js';
import { createHashgramEmbedder, hashgramVector } from '../../../src/eval/embed/hashgram.js';

const texts = ['{"title":"Paris"}', '{"city":"Lyon"}', 'null', '{"q":"é"}'];
const dirs: string[] = [];

function tempFile(name = '.emb_cache.json'): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'm3-cache-'));
  dirs.push(dir);
  return path.join(dir, name);
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('EmbeddingCache (keyed format)', () => {
  it('misses first, hits after a reload, and only embeds what is new', async () => {
    const file = tempFile();
    const embedder = createHashgramEmbedder();
    const first = EmbeddingCache.load(file, 'keyed', embedder.id);
    await embedTexts(embedder, [...texts, texts[0] as string], first);
    expect(first.stats).toMatchObject({ loaded: 0, hits: 0, misses: 4 });
    first.save();
    expect(first.stats.written).toBe(4);

    const second = EmbeddingCache.load(file, 'keyed', embedder.id);
    expect(second.stats.loaded).toBe(4);
    const vectors = await embedTexts(embedder, [...texts, '{"new":1}'], second);
    expect(second.stats).toMatchObject({ hits: 4, misses: 1 });
    expect(Array.from(vectors.get('{"title":"Paris"}') as Float32Array)).toEqual(Array.from(hashgramVector('{"title":"Paris"}', 512)));
  });

  it('never reuses vectors of another embedder id, and keeps their section on rewrite', async () => {
    const file = tempFile();
    const wide = createHashgramEmbedder(512);
    const narrow = createHashgramEmbedder(128);
    const cacheWide = EmbeddingCache.load(file, 'keyed', wide.id);
    await embedTexts(wide, texts, cacheWide);
    cacheWide.save();

    const cacheNarrow = EmbeddingCache.load(file, 'keyed', narrow.id);
    expect(cacheNarrow.stats).toMatchObject({ loaded: 0, otherEmbedders: 4 });
    const vectors = await embedTexts(narrow, texts, cacheNarrow);
    expect(cacheNarrow.stats).toMatchObject({ hits: 0, misses: 4 });
    for (const vector of vectors.values()) expect(vector).toHaveLength(128);
    cacheNarrow.save();

    const stored = JSON.parse(readFileSync(file, 'utf8')) as { format: string; embedders: Record<string, Record<string, number[]>> };
    expect(stored.format).toBe(CACHE_FORMAT_TAG);
    expect(Object.keys(stored.embedders).sort()).toEqual([narrow.id, wide.id].sort());
    expect(stored.embedders[wide.id]?.null).toHaveLength(512);
    expect(stored.embedders[narrow.id]?.null).toHaveLength(128);
  });

  it('refuses a reference-format file unless --cache-format reference is given', () => {
    const file = tempFile();
    writeFileSync(file, JSON.stringify({ '{"a":1}': [0.1, 0.2] }));
    expect(() => EmbeddingCache.load(file, 'keyed', 'hashgram-v1')).toThrow(/--cache-format reference together with --embedder/);
  });

  it('replaces a corrupt file with a warning', async () => {
    const file = tempFile();
    writeFileSync(file, '{"format": "m3bench-embedding-cache", truncated');
    const cache = EmbeddingCache.load(file, 'keyed', 'hashgram-v1');
    expect(cache.stats.warnings[0]).toMatch(/unreadable embedding cache ignored and replaced/);
    await embedTexts(createHashgramEmbedder(), ['x'], cache);
    cache.save();
    expect(EmbeddingCache.load(file, 'keyed', 'hashgram-v1').stats.loaded).toBe(1);
  });
});

describe('EmbeddingCache (reference format)', () => {
  it('reuses a flat text → vector file for the named embedder and rewrites it flat', async () => {
    const file = tempFile();
    const embedder = createHashgramEmbedder(128);
    const flat = Object.fromEntries(texts.map((text) => [text, Array.from(hashgramVector(text, 128))]));
    flat['{"stale":true}'] = [0.5, 0.5, 0.5];
    writeFileSync(file, JSON.stringify(flat));
    const cache = EmbeddingCache.load(file, 'reference', embedder.id);
    expect(cache.stats.loaded).toBe(5);
    await embedTexts(embedder, [...texts, '{"stale":true}'], cache);
    expect(cache.stats).toMatchObject({ hits: 4, misses: 1, rejected: 1 });
    cache.save();
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number[]>;
    expect(stored['{"stale":true}']).toHaveLength(128);
    expect(Object.keys(stored)).not.toContain('format');
  });

  it('refuses to treat an m3bench keyed file as a reference cache', () => {
    const file = tempFile();
    writeFileSync(file, JSON.stringify({ format: CACHE_FORMAT_TAG, version: 1, embedders: {} }));
    expect(() => EmbeddingCache.load(file, 'reference', 'hashgram-v1')).toThrow(/drop --cache-format reference/);
  });
});
