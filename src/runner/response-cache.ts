// `m3 run --cache [policy]`: a driver decorator that serves model responses from the
// model-response cache (src/store/response-cache.ts) on an exact request match and records
// fresh ones. Policies: `use` (serve hits, record misses), `read` (serve hits, record nothing),
// `refresh` (always ask the provider, record over the old entry). Counts per run say how many
// responses were served from the cache, which the run manifest records.
import { z } from 'zod';
import { ConfigError } from '../errors/index.js';
import { cachedResponseSchema, fromCachedResponse, toCachedResponse } from '../llm/response-cache-entry.js';
import { canonicalRequest, keyOfCanonical } from '../llm/response-cache-key.js';
import type { GenerateRequest, ModelDriver } from '../llm/types.js';
import { findResponse, openResponseCache, putResponse, type Store } from '../store/index.js';

const cachePolicySchema = z.enum(['use', 'read', 'refresh']);
export type CachePolicy = z.output<typeof cachePolicySchema>;

export interface ResponseCacheSettings {
  policy: CachePolicy;
  file: string;
  /** Entries older than this many seconds are not served (and are re-recorded under `use`). */
  maxAgeSeconds?: number;
}

/** What the manifest records of a run's cache use. */
export interface ResponseCacheCounts {
  policy: CachePolicy;
  file: string;
  maxAgeSeconds: number | null;
  /** Model responses served from the cache (no request made). */
  served: number;
  /** Requests the cache did not answer (sent to the provider). */
  missed: number;
  /** Responses written to the cache. */
  recorded: number;
}

export function parseCachePolicy(value: string | boolean | undefined): CachePolicy | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return 'use';
  const parsed = cachePolicySchema.safeParse(value);
  if (!parsed.success) throw new ConfigError(`--cache: "${value}" is not a cache policy (expected one of ${cachePolicySchema.options.join(', ')})`);
  return parsed.data;
}

export class ResponseCache {
  readonly counts: ResponseCacheCounts;

  private constructor(
    private readonly store: Store,
    settings: ResponseCacheSettings,
    private readonly runId: string,
  ) {
    this.counts = { policy: settings.policy, file: settings.file, maxAgeSeconds: settings.maxAgeSeconds ?? null, served: 0, missed: 0, recorded: 0 };
  }

  static open(settings: ResponseCacheSettings, runId: string): ResponseCache {
    return new ResponseCache(openResponseCache(settings.file), settings, runId);
  }

  /** The driver with this cache in front of it; everything but `generate` is the driver's own. */
  wrap(driver: ModelDriver): ModelDriver {
    const wrapped = Object.create(driver) as ModelDriver;
    Object.defineProperty(wrapped, 'generate', {
      value: async (request: GenerateRequest, options?: Parameters<ModelDriver['generate']>[1]) => {
        const canonical = canonicalRequest(driver, request);
        const key = keyOfCanonical(canonical);
        const hit = this.counts.policy === 'refresh' ? undefined : this.lookup(key);
        if (hit) {
          this.counts.served += 1;
          return hit;
        }
        this.counts.missed += 1;
        const response = await driver.generate(request, options);
        if (this.counts.policy !== 'read') {
          putResponse(this.store, {
            key,
            provider: driver.provider,
            model: driver.model,
            request: canonical,
            response: toCachedResponse(response),
            origin: 'recorded',
            runId: this.runId,
          });
          this.counts.recorded += 1;
        }
        return response;
      },
    });
    return wrapped;
  }

  private lookup(key: string) {
    const maxAge = this.counts.maxAgeSeconds;
    const notBefore = maxAge === null ? undefined : new Date(Date.now() - maxAge * 1000).toISOString();
    const entry = findResponse(this.store, key, notBefore);
    if (!entry) return undefined;
    const parsed = cachedResponseSchema.safeParse(entry.response);
    // An entry this version cannot read is a miss (and is re-recorded), never a failed task.
    return parsed.success ? fromCachedResponse(parsed.data) : undefined;
  }

  close(): void {
    this.store.close();
  }
}
