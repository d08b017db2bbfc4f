// `m3 cache export|import|stats`: a cache moves between machines as JSONL, one entry per line in
// a stable order, so a group can share one recorded set of tool returns and every member
// replays identical bytes. Import validates every line and names the file and line of a bad one.
// A shared file is untrusted: a line's `arguments_key` must be the key of its own `arguments`
// (else a line shown under Paris would be served for Tokyo), servers that are never mocked,
// names that are not names, results over the cache's cap and lines without `tools_hash` (which
// no lookup would ever find) are refused, all before anything is written.
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
import { neverMockedServers } from './allow-list.js';
import { argumentsKey } from './argument-key.js';
import { openScrubbedCache, oversizedResult } from './cache.js';

/** A server or tool name as mcp_servers.json and MCP allow them: never a path. */
const namePattern = /^(?!\.{1,2}$)[A-Za-z0-9_.-]{1,128}$/;
const nameMessage = 'must be a name (letters, digits, ".", "_", "-"; not "." or ".."), not a path';

const exportLineSchema = z.strictObject({
  server: z.string().regex(namePattern, nameMessage),
  tool: z.string().regex(namePattern, nameMessage),
  arguments: z.unknown(),
  /** Written by export; must equal the key recomputed from `arguments`; recomputed when left out. */
  arguments_key: z.string().min(1).optional(),
  tools_hash: z
    .string({ error: "is missing: lookups key on the live server's tools hash, so an entry without one is never served" })
    .min(1, "is empty: lookups key on the live server's tools hash, so such an entry is never served"),
  result: z.string(),
  source: cacheSourceSchema,
  recorded_at: z.iso.datetime({ offset: true }),
});

/** Writes every entry of the cache file to `output` as JSONL; returns the number of lines. */
export function exportCache(cacheFile: string, output: string): number {
  const store = openScrubbedCache(cacheFile);
  try {
    const lines = allCacheEntries(store).map((entry) =>
      JSON.stringify({
        server: entry.server,
        tool: entry.tool,
        arguments: entry.arguments,
        // Recomputed from the stored (redacted) arguments: a file written before keys were taken of
        // redacted arguments may hold a raw key, which must not leave the machine.
        arguments_key: argumentsKey(entry.arguments),
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

type ExportLine = z.output<typeof exportLineSchema>;

/** Why a well-formed line may still not enter the cache, or undefined. */
function refusalOf(line: ExportLine): string | undefined {
  if (neverMockedServers.includes(line.server))
    return `server: "${line.server}" is never mocked (it works on images or files), so the cache may hold nothing for it`;
  if (line.arguments_key !== undefined && line.arguments_key !== argumentsKey(line.arguments))
    return "arguments_key: does not match the key of this line's arguments (leave it out to have it recomputed)";
  const oversize = oversizedResult(line.result);
  if (oversize) return `result: ${oversize}`;
  return undefined;
}

function parseLines(input: string): ExportLine[] {
  const problems: string[] = [];
  const entries: ExportLine[] = [];
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
      if (!parsed.success) {
        problems.push(...parsed.error.issues.map((issue) => `${input}:${index + 1}: ${issue.path.join('.') || 'line'}: ${issue.message}`));
        return;
      }
      const refusal = refusalOf(parsed.data);
      if (refusal) problems.push(`${input}:${index + 1}: ${refusal}`);
      else entries.push(parsed.data);
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
  const store = openScrubbedCache(cacheFile);
  try {
    inTransaction(store, () => {
      for (const entry of entries) {
        const outcome = putCacheEntry(
          store,
          {
            server: entry.server,
            tool: entry.tool,
            argumentsKey: argumentsKey(entry.arguments),
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
