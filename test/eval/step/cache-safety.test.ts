// Cache safety: a reference-format cache (the reference's .emb_cache.json, 384-d MiniLM vectors)
// is refused for an embedder of another dimension instead of silently mixing vectors, and a cache
// m3bench did not write is never overwritten unless --update-reference-cache is given. Library
// level and through `m3 eval step` (in this process: test/support/m3-in-process.ts; the command's
// exit status, messages and the cache file are the point, not the process).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddingCache, embedTexts } from '../../../src/eval/embed/cache.js';
import { createHashgramEmbedder } from '../../../src/eval/embed/hashgram.js';
import { unitDraw } from '../../support/perturb.js';
import { loadTrajectories } from '../../../src/eval/step/trajectory.js';
import { repoRoot } from '../../support/shared-assets.js';
import { runM3InProcess } from '../../support/m3-in-process.js';

const work = mkdtempSync(path.join(tmpdir(), 'm3-cache-safety-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const gtFile = path.join(repoRoot, 'json', 'm3_local_GT.json');
const vector = (text: string, dimension: number) => Array.from({ length: dimension }, (_, index) => unitDraw('ref-cache', text, index) - 0.5);

function referenceCache(name: string, texts: string[], dimension: number): string {
  const file = path.join(work, name);
  writeFileSync(file, JSON.stringify(Object.fromEntries(texts.map((text) => [text, vector(text, dimension)]))));
  return file;
}

describe('reference-format caches, library level', () => {
  it('refuses an embedder whose dimension differs from the cache and leaves the file as it was', async () => {
    const file = referenceCache('lib-384.json', ['{"a":1}', '{"b":2}'], 384);
    const before = readFileSync(file, 'utf8');
    const cache = EmbeddingCache.load(file, 'reference', 'hashgram-v1', { protectForeign: true });
    await expect(embedTexts(createHashgramEmbedder(512), ['{"a":1}'], cache)).rejects.toThrow(/holds 384-dimensional vectors .* produces 512-dimensional ones/);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('with protectForeign reads the vectors but never writes the file; the new ones are reported', async () => {
    const file = referenceCache('lib-128.json', ['{"a":1}'], 128);
    const before = readFileSync(file, 'utf8');
    const cache = EmbeddingCache.load(file, 'reference', 'hashgram-v1/128', { protectForeign: true });
    const vectors = await embedTexts(createHashgramEmbedder(128), ['{"a":1}', '{"new":true}'], cache);
    expect(Array.from(vectors.get('{"a":1}') ?? [])).toEqual(vector('{"a":1}', 128).map((value) => Math.fround(value)));
    cache.save();
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(cache.stats.warnings.join('\n')).toMatch(/not written by m3bench and is left untouched: 1 new vector/);
  });
});

function runCli(args: string[]) {
  return runM3InProcess(['eval', 'step', '--gt', gtFile, '--pred', gtFile, ...args]);
}

describe('m3 eval step with --cache-format reference', () => {
  const texts = [...loadTrajectories(gtFile, 'gt').byId.values()].flatMap((trajectory) => trajectory.calls.map((call) => call.text));

  it('exits 2 for a 384-d reference cache with the 512-d default embedder, naming both dimensions; the cache is unchanged', async () => {
    const file = referenceCache('cli-384.json', texts, 384);
    const before = readFileSync(file, 'utf8');
    const result = await runCli(['--output-dir', path.join(work, 'out-384'), '--cache-format', 'reference', '--embedding-cache', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/holds 384-dimensional vectors .* produces 512-dimensional ones/);
    expect(readFileSync(file, 'utf8')).toBe(before);
  }, 180_000);

  it('uses a matching cache without writing it, and writes it only with --update-reference-cache', async () => {
    const file = referenceCache('cli-128.json', texts.slice(0, 10), 128);
    const before = readFileSync(file, 'utf8');
    const read = await runCli([
      '--output-dir',
      path.join(work, 'out-128'),
      '--cache-format',
      'reference',
      '--embedding-cache',
      file,
      '--embedder',
      'hashgram-v1/128',
    ]);
    expect(read.code, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout).cache.hits).toBeGreaterThan(0);
    expect(read.stderr).toMatch(/left untouched: \d+ new vector/);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const written = await runCli([
      '--output-dir',
      path.join(work, 'out-128b'),
      '--cache-format',
      'reference',
      '--embedding-cache',
      file,
      '--embedder',
      'hashgram-v1/128',
      '--update-reference-cache',
    ]);
    expect(written.code, written.stderr).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object).length).toBe(new Set(texts).size);
  }, 180_000);
});
