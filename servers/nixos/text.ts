// What every nixos tool shares: the tool shape, the reference's error wording
// ("Error (CODE): message", an ordinary tool error here), and Python-style field access on
// search-backend documents.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { pythonGet, pythonStr, pythonStrip } from '../shared/python-format.js';
import { errorResult, textResult } from '../shared/tool-result.js';
import type { ChannelCache } from './channels.js';
import { ClientHttpError, type NixosHttp } from './upstreams.js';

export interface NixosContext {
  http: NixosHttp;
  channels: ChannelCache;
}

export interface NixosTool {
  name: string;
  description: string;
  shape: Record<string, z.ZodType>;
  run: (context: NixosContext, args: Record<string, unknown>) => Promise<CallToolResult>;
}

/** The reference's `error(msg, code)`: "Error (CODE): msg". */
export function nixosError(message: string, code = 'ERROR'): CallToolResult {
  return errorResult(`Error (${code}): ${message}`);
}

export const answer = (text: string): CallToolResult => textResult(text);

/** `src.get(key, "")` printed by an f-string. */
export function text(record: unknown, key: string): string {
  return pythonStr(pythonGet(record, key, ''));
}

/**
 * The reference's last resort, `except Exception as e: return error(str(e))`, for the failures
 * that are about what was asked (a 4xx); infrastructure failures are rethrown to stay typed.
 */
export async function catchClientErrors(
  body: () => Promise<CallToolResult>,
  describe: (message: string) => string = (message) => message,
): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ClientHttpError) return nixosError(describe(error.message));
    throw error;
  }
}

/** `"\n".join(lines).strip()`. */
export function joinStripped(lines: readonly string[]): string {
  return pythonStrip(lines.join('\n'));
}
