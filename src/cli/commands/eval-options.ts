// Option checks shared by the `m3 eval step` and `m3 eval cv` commands (their own module, so
// neither command imports the other).
import { ConfigError } from '../../errors/index.js';

/** --cache-format is keyed or reference, and reference names the file to reuse. */
export function checkCacheOptions(cacheFormat: string, embeddingCache: string | undefined): asserts cacheFormat is 'keyed' | 'reference' {
  if (cacheFormat !== 'keyed' && cacheFormat !== 'reference') throw new ConfigError(`--cache-format: expected "keyed" or "reference", got "${cacheFormat}"`);
  if (cacheFormat === 'reference' && !embeddingCache)
    throw new ConfigError('--cache-format reference needs --embedding-cache <file> naming the reference cache to reuse');
}

/** A finite number for a float option (thresholds, timeouts), naming the option on error. */
export function parseNumberOption(name: string, value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed)) throw new ConfigError(`${name}: expected a number, got "${value}"`);
  return parsed;
}
