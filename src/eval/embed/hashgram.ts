// `hashgram-v1`: the built-in, deterministic, offline text embedder (no model weights).
//
// A text is NFKC-normalised and lower-cased (MiniLM is uncased too), then described by four
// feature families: character 2-, 3- and 4-grams over code points, and word tokens (runs of
// letters/digits). Each family is hashed (FNV-1a, 32 bit) into its own signed vector of
// `dimension` buckets (sign from a second mix of the hash, so collisions cancel instead of
// piling up), normalised, weighted and summed; the result is unit length. The cosine of two
// texts is therefore a weighted mean of the four per-family cosines (weights squared).
//
// Weighting is per text, never per corpus: a corpus IDF would make a score depend on which
// other tasks happen to be evaluated. Term frequency is sublinear (1 + ln tf), which also damps
// long texts that repeat themselves, and n-grams made only of JSON punctuation (`":"`, `},{`)
// get a fixed low weight: they occur in every serialised argument object and carry no content,
// so this acts as a fixed, corpus-free IDF prior.
//
// Properties the tests pin: identical texts → cosine 1; a value edit that keeps most of the text
// (e.g. "Paris" → "Paris, France") → high; same keys with unrelated values → below tau_weak;
// unrelated texts → near 0.
import type { Embedder } from './types.js';

export const HASHGRAM_ID = 'hashgram-v1';

interface Family {
  name: string;
  weight: number;
  features: (text: string) => string[];
}

const punctuationOnly = /^[^\p{L}\p{N}]+$/u;
const STRUCTURAL_WEIGHT = 0.2;

function codePointGrams(size: number): (text: string) => string[] {
  return (text) => {
    const grams: string[] = [];
    // Fast path: without surrogate pairs, code units are code points.
    if (!/[\ud800-\udfff]/.test(text)) {
      for (let start = 0; start + size <= text.length; start += 1) grams.push(text.slice(start, start + size));
      if (grams.length === 0 && text.length > 0) grams.push(text);
      return grams;
    }
    const points = Array.from(text);
    for (let start = 0; start + size <= points.length; start += 1) grams.push(points.slice(start, start + size).join(''));
    if (grams.length === 0 && points.length > 0) grams.push(points.join(''));
    return grams;
  };
}

const families: readonly Family[] = [
  { name: 'c2', weight: 0.5, features: codePointGrams(2) },
  { name: 'c3', weight: 1, features: codePointGrams(3) },
  { name: 'c4', weight: 1, features: codePointGrams(4) },
  { name: 'w', weight: 1, features: (text) => text.match(/[\p{L}\p{N}]+/gu) ?? [] },
];

/** FNV-1a over UTF-16 code units, seeded with the family name so families hash independently. */
function fnv1a(text: string, seed: number): number {
  let hash = seed;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const seeds = new Map<string, number>();
function familySeed(name: string): number {
  let seed = seeds.get(name);
  if (seed === undefined) {
    seed = fnv1a(`${name}\u0001`, 0x811c9dc5);
    seeds.set(name, seed);
  }
  return seed;
}

/** Murmur3 finaliser: decorrelates the sign bit from the bucket bits. */
function mix(hash: number): number {
  let value = hash;
  value ^= value >>> 16;
  value = Math.imul(value, 0x85ebca6b);
  value ^= value >>> 13;
  value = Math.imul(value, 0xc2b2ae35);
  value ^= value >>> 16;
  return value >>> 0;
}

function familyVector(text: string, family: Family, dimension: number): Float64Array {
  const counts = new Map<string, number>();
  for (const feature of family.features(text)) counts.set(feature, (counts.get(feature) ?? 0) + 1);
  const vector = new Float64Array(dimension);
  const seed = familySeed(family.name);
  for (const [feature, count] of counts) {
    const hash = fnv1a(feature, seed);
    const weight = (1 + Math.log(count)) * (punctuationOnly.test(feature) ? STRUCTURAL_WEIGHT : 1);
    const sign = mix(hash) & 1 ? -1 : 1;
    const bucket = hash % dimension;
    vector[bucket] = (vector[bucket] ?? 0) + sign * weight;
  }
  return vector;
}

function norm(vector: Float64Array): number {
  let total = 0;
  for (const value of vector) total += value * value;
  return Math.sqrt(total);
}

/**
 * Embeds one text (pure function of the text and the dimension).
 * @internal Exported for its tests.
 */
export function hashgramVector(text: string, dimension: number): Float32Array {
  const normalised = text.normalize('NFKC').toLowerCase();
  const combined = new Float64Array(dimension);
  for (const family of families) {
    const vector = familyVector(normalised, family, dimension);
    const length = norm(vector);
    if (length === 0) continue;
    for (let index = 0; index < dimension; index += 1) combined[index] = (combined[index] ?? 0) + (family.weight * (vector[index] ?? 0)) / length;
  }
  const length = norm(combined);
  const result = new Float32Array(dimension);
  if (length === 0) return result;
  for (let index = 0; index < dimension; index += 1) result[index] = (combined[index] ?? 0) / length;
  return result;
}

export function createHashgramEmbedder(dimension = 512): Embedder {
  if (!Number.isInteger(dimension) || dimension < 16) throw new RangeError(`hashgram dimension must be an integer >= 16, got ${dimension}`);
  return {
    id: dimension === 512 ? HASHGRAM_ID : `${HASHGRAM_ID}/${dimension}`,
    dimension,
    embed: async (texts) => texts.map((text) => hashgramVector(text, dimension)),
  };
}
