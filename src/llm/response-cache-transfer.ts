// `m3 model-cache export|import|stats`: the model-response cache as shareable JSONL, one entry
// per line in key order. A shared file is untrusted: a line's `key` must be the key recomputed
// from its own `request` (else a reply recorded for one image would be served for another), its
// request must name the line's provider and model, and its response must be one this version
// reads; every line is checked before anything is written. Responses pass the store's redaction.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../errors/index.js';
import { allResponses, inTransaction, openResponseCache, putResponse, responseStats, type ResponseStatsRow } from '../store/index.js';
import { writeFileAtomic } from '../tasks/write-json.js';
import { cachedResponseSchema } from './response-cache-entry.js';
import { keyOfCanonical } from './response-cache-key.js';

const exportLineSchema = z.strictObject({
  key: z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 (64 hex digits)'),
  provider: z.string().min(1),
  model: z.string().min(1),
  request: z.record(z.string(), z.unknown()),
  response: cachedResponseSchema,
  recorded_at: z.iso.datetime({ offset: true }),
});
type ExportLine = z.output<typeof exportLineSchema>;

/** Writes every entry to `output` as JSONL; returns the number of lines. */
export function exportResponses(cacheFile: string, output: string): number {
  const store = openResponseCache(cacheFile);
  try {
    const lines = allResponses(store).map((entry) =>
      JSON.stringify({
        key: entry.key,
        provider: entry.provider,
        model: entry.model,
        request: entry.request,
        response: entry.response,
        recorded_at: entry.recordedAt,
      }),
    );
    writeFileAtomic(output, lines.length > 0 ? `${lines.join('\n')}\n` : '');
    return lines.length;
  } finally {
    store.close();
  }
}

function refusalOf(line: ExportLine): string | undefined {
  if (line.request.provider !== line.provider || line.request.model !== line.model)
    return `request: names ${String(line.request.provider)}:${String(line.request.model)}, not the line's ${line.provider}:${line.model}`;
  if (keyOfCanonical(line.request) !== line.key) return "key: does not match the key of this line's request (the request or the key was changed)";
  return undefined;
}

function parseLines(input: string): ExportLine[] {
  const lines = readFileSync(input, 'utf8').split('\n');
  const parsed: ExportLine[] = [];
  lines.forEach((text, index) => {
    if (text.trim() === '') return;
    const where = `${input}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ConfigError(`${where}: not JSON (${(error as Error).message})`);
    }
    const result = exportLineSchema.safeParse(value);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new ConfigError(`${where}: ${issue?.path.join('.') || 'line'}: ${issue?.message ?? 'invalid'}`);
    }
    const refusal = refusalOf(result.data);
    if (refusal) throw new ConfigError(`${where}: refused: ${refusal}`);
    parsed.push(result.data);
  });
  return parsed;
}

/** Reads a JSONL export into the cache (all or nothing); imported entries replace local ones of the same key. */
export function importResponses(cacheFile: string, input: string): number {
  const lines = parseLines(input);
  const store = openResponseCache(cacheFile);
  try {
    inTransaction(store, () => {
      for (const line of lines)
        putResponse(store, {
          key: line.key,
          provider: line.provider,
          model: line.model,
          request: line.request,
          response: line.response,
          origin: 'imported',
          recordedAt: new Date(line.recorded_at),
        });
    });
    return lines.length;
  } finally {
    store.close();
  }
}

export function readResponseStats(cacheFile: string): ResponseStatsRow[] {
  const store = openResponseCache(cacheFile);
  try {
    return responseStats(store);
  } finally {
    store.close();
  }
}
