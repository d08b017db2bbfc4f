// `m3 run --cache [policy]`: a driver decorator that serves model responses from the
// model-response cache (src/store/response-cache.ts) on an exact request match and records
// fresh ones. Policies: `use` (serve hits, record misses), `read` (serve hits, record nothing),
// `refresh` (always ask the provider, record over the old entry). Counts per run say how many
// responses were served from the cache, which the run manifest records.
import path from 'node:path';
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

const workspacePlaceholder = '<m3bench:workspace-root>';
const runFolderPlaceholder = '<m3bench:run-folder>';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Each run has its own folder, so the paths a model is shown (task workspaces) differ between two
 * runs of the same request. The key and the stored response hold placeholders for them; a served
 * response gets this run's paths back, so it never names another run's files.
 */
class RunPaths {
  private readonly workspaces: RegExp;
  private readonly folder: RegExp;

  constructor(private readonly runDir: string | undefined) {
    const root = escapeRegExp(runDir ?? '\u0000');
    this.workspaces = new RegExp(`${root}/workspaces/[^/"\\\\]+`, 'g');
    this.folder = new RegExp(root, 'g');
  }

  /** The value with this run's paths replaced, and the workspace root the value named (if any). */
  normalise<T>(value: T): { value: T; workspaceRoot: string | undefined } {
    if (!this.runDir) return { value, workspaceRoot: undefined };
    const text = JSON.stringify(value);
    const workspaceRoot = text.match(this.workspaces)?.[0];
    const replaced = text.replace(this.workspaces, workspacePlaceholder).replace(this.folder, runFolderPlaceholder);
    return { value: JSON.parse(replaced) as T, workspaceRoot };
  }

  /** A stored value with the placeholders turned into this run's paths. */
  restore<T>(value: T, workspaceRoot: string | undefined): T {
    if (!this.runDir) return value;
    const text = JSON.stringify(value)
      .split(workspacePlaceholder)
      .join(workspaceRoot ?? path.join(this.runDir, 'workspaces'))
      .split(runFolderPlaceholder)
      .join(this.runDir);
    return JSON.parse(text) as T;
  }
}

export class ResponseCache {
  readonly counts: ResponseCacheCounts;

  private readonly paths: RunPaths;

  private constructor(
    private readonly store: Store,
    settings: ResponseCacheSettings,
    private readonly runId: string,
    runDir: string | undefined,
  ) {
    this.paths = new RunPaths(runDir);
    this.counts = { policy: settings.policy, file: settings.file, maxAgeSeconds: settings.maxAgeSeconds ?? null, served: 0, missed: 0, recorded: 0 };
  }

  /** `runDir`: the run's folder, whose paths are keyed and stored as placeholders. */
  static open(settings: ResponseCacheSettings, runId: string, runDir?: string): ResponseCache {
    return new ResponseCache(openResponseCache(settings.file), settings, runId, runDir);
  }

  /** The driver with this cache in front of it; everything but `generate` is the driver's own. */
  wrap(driver: ModelDriver): ModelDriver {
    const wrapped = Object.create(driver) as ModelDriver;
    Object.defineProperty(wrapped, 'generate', {
      value: async (request: GenerateRequest, options?: Parameters<ModelDriver['generate']>[1]) => {
        const { value: canonical, workspaceRoot } = this.paths.normalise(canonicalRequest(driver, request));
        const key = keyOfCanonical(canonical);
        const hit = this.counts.policy === 'refresh' ? undefined : this.lookup(key);
        if (hit) {
          this.counts.served += 1;
          return fromCachedResponse(this.paths.restore(hit, workspaceRoot));
        }
        this.counts.missed += 1;
        const response = await driver.generate(request, options);
        if (this.counts.policy !== 'read') {
          putResponse(this.store, {
            key,
            provider: driver.provider,
            model: driver.model,
            request: canonical,
            response: this.paths.normalise(toCachedResponse(response)).value,
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
    return parsed.success ? parsed.data : undefined;
  }

  close(): void {
    this.store.close();
  }
}
