// `m3 cache export|import|stats`: a cache moves between machines as JSONL, one entry per line in
// a stable order, so a group can share one recorded set of tool returns and every member
// replays identical bytes. Import validates every line and names the file and line of a bad one.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../errors/index.js';
import {
  allCacheEntries,
  cacheSourceSchema,
  cacheStats,
  inTransaction,
  openFallbackCache,
  putCacheEntry,
  type CacheStatsRow,
  type PutOutcome,
} from '../store/index.js';
import { writeFileAtomic } from '../tasks/write-json.js';
import { argumentsKey } from './argument-key.js';

const exportLineSchema = z.strictObject({
  server: z.string().min(1),
  tool: z.string().min(1),
  arguments: z.unknown(),
  /** Written by export; recomputed from `arguments` when a hand-made file leaves it out. */
  arguments_key: z.string().min(1).optional(),
  tools_hash: z.string().default(''),
  result: z.string(),
  source: cacheSourceSchema,
  recorded_at: z.iso.datetime({ offset: true }),
});

/** Writes every entry of the cache file to `output` as JSONL; returns the number of lines. */
export function exportCache(cacheFile: string, output: string): number {
  const store = openFallbackCache(cacheFile);
  try {
    const lines = allCacheEntries(store).map((entry) =>
      JSON.stringify({
        server: entry.server,
        tool: entry.tool,
        arguments: entry.arguments,
        arguments_key: entry.argumentsKey,
        tools_hash: entry.toolsHash,
        result: entry.resultText,
        source: entry.source,
        recorded_at: entry.recordedAt,
      }),
    );
    writeFileAtomic(output, lines.length > 0 ? `${lines.join('\n')}\n` : '');
    return lines.length;
  } finally {
    store.close();
  }
}

function parseLines(input: string): Array<z.output<typeof exportLineSchema>> {
  const problems: string[] = [];
  const entries: Array<z.output<typeof exportLineSchema>> = [];
  readFileSync(input, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        problems.push(`${input}:${index + 1}: not JSON (${(error as Error).message})`);
        return;
      }
      const parsed = exportLineSchema.safeParse(value);
      if (parsed.success) entries.push(parsed.data);
      else problems.push(...parsed.error.issues.map((issue) => `${input}:${index + 1}: ${issue.path.join('.') || 'line'}: ${issue.message}`));
    });
  if (problems.length > 0)
    throw new ConfigError(
      `cache import refused, nothing was written:\n  ${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? `\n  ... and ${problems.length - 20} more` : ''}`,
    );
  return entries;
}

/**
 * Imports a JSONL export into the cache file (created if needed), all lines or none. By default
 * an imported entry replaces a local one with the same key, so the group's set wins.
 */
export function importCache(cacheFile: string, input: string, options: { keepExisting: boolean }): Record<PutOutcome, number> {
  const entries = parseLines(input);
  const counts: Record<PutOutcome, number> = { inserted: 0, replaced: 0, unchanged: 0, kept: 0 };
  const store = openFallbackCache(cacheFile);
  try {
    inTransaction(store, () => {
      for (const entry of entries) {
        const outcome = putCacheEntry(
          store,
          {
            server: entry.server,
            tool: entry.tool,
            argumentsKey: entry.arguments_key ?? argumentsKey(entry.arguments),
            toolsHash: entry.tools_hash,
            arguments: entry.arguments,
            resultText: entry.result,
            source: entry.source,
            recordedAt: new Date(entry.recorded_at),
          },
          { replace: !options.keepExisting },
        );
        counts[outcome] += 1;
      }
    });
  } finally {
    store.close();
  }
  return counts;
}

export function readCacheStats(cacheFile: string): CacheStatsRow[] {
  const store = openFallbackCache(cacheFile);
  try {
    return cacheStats(store);
  } finally {
    store.close();
  }
}
