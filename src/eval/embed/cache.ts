// The embedding cache file (the reference's `.emb_cache.json`), loaded before embedding and rewritten
// after. Two formats:
//   keyed (default)  {"format":"m3bench-embedding-cache","version":1,
//                     "embedders":{"<embedder id>":{"<text>":[floats...]}}}
//                    Vectors are looked up only under the current embedder's id, so switching
//                    encoders never reuses stale vectors; sections of other
//                    embedders are kept untouched when the file is rewritten.
//   reference        the reference's flat {"<text>":[floats...]}. It records no encoder, so it is
//                    used only when the user asks for it explicitly and names the embedder that
//                    produced it. Its dimension is that of most of its vectors; an embedder of
//                    another dimension is refused (its vectors cannot have written the file),
//                    and single entries of another length are ignored.
// A file in the other format than the one requested is refused with an explanation rather than
// silently reused or overwritten. An unreadable or corrupt file is reported and replaced, except
// with `protectForeign` (what the CLI sets): then a file m3bench did not write (a reference-format
// cache, an unreadable file) is never overwritten; save() only reports what it left unwritten.
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../tasks/write-json.js';
import { z } from 'zod';
import { ConfigError } from '../../errors/index.js';
import type { Embedder } from './types.js';

export type CacheFormat = 'keyed' | 'reference';
/** @internal Exported for its tests. */
export const CACHE_FORMAT_TAG = 'm3bench-embedding-cache';

const vectorTable = z.record(z.string(), z.array(z.number()));
const keyedSchema = z.object({ format: z.literal(CACHE_FORMAT_TAG), version: z.literal(1), embedders: z.record(z.string(), vectorTable) });

export interface CacheStats {
  file: string;
  format: CacheFormat;
  embedder: string;
  /** Entries available for this embedder when the file was read. */
  loaded: number;
  /** Lookups (distinct texts) answered from the cache. */
  hits: number;
  /** Distinct texts that had to be embedded. */
  misses: number;
  /** Entries skipped because their length differs from the embedder's dimension. */
  rejected: number;
  /** Entries in the file for other embedders (kept, never used). */
  otherEmbedders: number;
  written: number;
  warnings: string[];
}

export interface CacheLoadOptions {
  /** Never overwrite a file m3bench did not write (reference format, unreadable). */
  protectForeign?: boolean;
}

/** The most common vector length of a table (undefined when empty). */
function dominantLength(table: Record<string, number[]>): number | undefined {
  const counts = new Map<number, number>();
  for (const vector of Object.values(table)) counts.set(vector.length, (counts.get(vector.length) ?? 0) + 1);
  let best: number | undefined;
  for (const [length, count] of counts) if (best === undefined || count > (counts.get(best) ?? 0)) best = length;
  return best;
}

export class EmbeddingCache {
  private readonly sections: Record<string, Record<string, number[]>>;
  private readonly current: Record<string, number[]>;
  /** The dimension of a reference-format file as read (undefined: keyed, or empty). */
  private readonly referenceDimension: number | undefined;
  private readonly readOnly: boolean;
  readonly stats: CacheStats;

  private constructor(
    file: string,
    format: CacheFormat,
    embedderId: string,
    sections: Record<string, Record<string, number[]>>,
    warnings: string[],
    readOnly = false,
  ) {
    this.sections = sections;
    this.readOnly = readOnly;
    this.current = sections[embedderId] ?? {};
    this.sections[embedderId] = this.current;
    const otherEmbedders = Object.entries(sections)
      .filter(([id]) => id !== embedderId)
      .reduce((sum, [, table]) => sum + Object.keys(table).length, 0);
    this.stats = {
      file,
      format,
      embedder: embedderId,
      loaded: Object.keys(this.current).length,
      hits: 0,
      misses: 0,
      rejected: 0,
      otherEmbedders,
      written: 0,
      warnings,
    };
    this.referenceDimension = format === 'reference' ? dominantLength(this.current) : undefined;
  }

  private refuseDimension(dimension: number): void {
    if (this.referenceDimension === undefined || dimension <= 0 || dimension === this.referenceDimension) return;
    throw new ConfigError(
      `${this.stats.file} holds ${this.referenceDimension}-dimensional vectors (a reference-format cache), but --embedder ${this.stats.embedder} produces ${dimension}-dimensional ones: ` +
        'the file was written by another encoder (the reference writes all-MiniLM-L6-v2, 384 dimensions), so its similarities would be mixed with ours. ' +
        'Pass --embedder <the encoder that wrote it> (e.g. sentence-transformers/all-MiniLM-L6-v2), or drop --cache-format reference and use another --embedding-cache.',
    );
  }

  /** Reads `file` if it exists; throws a ConfigError when it is in the other format. */
  static load(file: string, format: CacheFormat, embedderId: string, options: CacheLoadOptions = {}): EmbeddingCache {
    const warnings: string[] = [];
    if (!existsSync(file)) return new EmbeddingCache(file, format, embedderId, {}, warnings);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      const action = options.protectForeign ? 'ignored and left untouched (pass another --embedding-cache, or delete it)' : 'ignored and replaced';
      warnings.push(`${file}: unreadable embedding cache ${action} (${(error as Error).message})`);
      return new EmbeddingCache(file, format, embedderId, {}, warnings, options.protectForeign);
    }
    const isKeyed = Boolean(raw && typeof raw === 'object' && (raw as { format?: unknown }).format === CACHE_FORMAT_TAG);
    if (format === 'keyed') {
      if (!isKeyed) {
        throw new ConfigError(
          `${file} is not an m3bench embedding cache; it looks like a reference-format cache (text → vector) that does not record its encoder. ` +
            'To reuse it pass --cache-format reference together with --embedder <the encoder that wrote it>; ' +
            'to keep it untouched pass --embedding-cache <another file>.',
        );
      }
      const parsed = keyedSchema.safeParse(raw);
      if (!parsed.success) {
        warnings.push(`${file}: malformed m3bench embedding cache ignored and replaced (${parsed.error.issues[0]?.message ?? 'invalid'})`);
        return new EmbeddingCache(file, format, embedderId, {}, warnings);
      }
      return new EmbeddingCache(file, format, embedderId, parsed.data.embedders, warnings);
    }
    if (isKeyed) {
      throw new ConfigError(`${file} is an m3bench keyed embedding cache, not a reference-format cache; drop --cache-format reference to use it.`);
    }
    const parsed = vectorTable.safeParse(raw);
    if (!parsed.success) {
      warnings.push(
        `${file}: reference-format cache is not an object of text → number[]; ignored and ${options.protectForeign ? 'left untouched' : 'replaced'}`,
      );
      return new EmbeddingCache(file, format, embedderId, {}, warnings, options.protectForeign);
    }
    return new EmbeddingCache(file, format, embedderId, { [embedderId]: parsed.data }, warnings, options.protectForeign);
  }

  /** In-memory cache (no file), e.g. for tests and the benchmark. */
  static memory(embedderId: string): EmbeddingCache {
    return new EmbeddingCache('', 'keyed', embedderId, {}, []);
  }

  lookup(text: string, dimension: number): Float32Array | undefined {
    this.refuseDimension(dimension);
    const stored = Object.hasOwn(this.current, text) ? this.current[text] : undefined;
    if (!stored) return undefined;
    if (dimension > 0 && stored.length !== dimension) {
      this.stats.rejected += 1;
      return undefined;
    }
    return new Float32Array(stored);
  }

  store(text: string, vector: Float32Array): void {
    this.refuseDimension(vector.length);
    // An indexed copy: Array.from on a typed array costs ~15x more, once per new text.
    const values = new Array<number>(vector.length);
    for (let index = 0; index < vector.length; index += 1) values[index] = vector[index] as number;
    this.current[text] = values;
  }

  /** Writes the file atomically (tmp + rename), compact JSON like the reference. */
  save(): void {
    if (!this.stats.file) return;
    if (this.readOnly) {
      if (this.stats.misses > 0)
        this.stats.warnings.push(`${this.stats.file} was not written by m3bench and is left untouched: ${this.stats.misses} new vector(s) were not saved`);
      return;
    }
    const body = this.stats.format === 'keyed' ? { format: CACHE_FORMAT_TAG, version: 1, embedders: this.sections } : this.current;
    writeFileAtomic(this.stats.file, JSON.stringify(body));
    this.stats.written = Object.keys(this.current).length;
  }
}

/**
 * Embeds the distinct texts, answering from the cache first; new vectors are added to it.
 * Returns text → vector for every input text.
 */
export async function embedTexts(embedder: Embedder, texts: Iterable<string>, cache: EmbeddingCache): Promise<Map<string, Float32Array>> {
  const vectors = new Map<string, Float32Array>();
  const missing: string[] = [];
  for (const text of new Set(texts)) {
    const cached = cache.lookup(text, embedder.dimension);
    if (cached) {
      vectors.set(text, cached);
      cache.stats.hits += 1;
    } else {
      missing.push(text);
    }
  }
  cache.stats.misses += missing.length;
  if (missing.length > 0) {
    const fresh = await embedder.embed(missing);
    missing.forEach((text, index) => {
      const vector = fresh[index];
      if (!vector) return;
      vectors.set(text, vector);
      cache.store(text, vector);
    });
  }
  return vectors;
}
