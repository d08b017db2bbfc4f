// Fingerprints of a tool surface: which tools (names, descriptions, input schemas) a run saw.
// JSON is serialised with sorted keys so the hash does not depend on property order.
import { createHash } from 'node:crypto';

export interface HashableTool {
  name: string;
  description?: string | undefined;
  inputSchema: unknown;
}

/** JSON with object keys sorted at every level; arrays keep their order. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableStringify(item)}`).join(',')}}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function sortedTools(tools: readonly HashableTool[]): Array<{ name: string; description: string; inputSchema: unknown }> {
  return [...tools]
    .map((tool) => ({ name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function hashServerTools(tools: readonly HashableTool[]): string {
  return sha256(stableStringify(sortedTools(tools)));
}

/** One hash over several servers, keyed by server name so renaming a server changes it. */
export function hashToolSurface(servers: ReadonlyArray<{ name: string; tools: readonly HashableTool[] }>): string {
  const sorted = [...servers]
    .map((server) => ({ server: server.name, tools: sortedTools(server.tools) }))
    .sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
  return sha256(stableStringify(sorted));
}
