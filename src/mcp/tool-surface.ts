// Which tools a run offers. `m3bench` (the default) offers every tool our servers list.
// `reference` offers exactly the tools of the reference catalog (the layout of
// ../shared/data/m3bench/tools_catalog.json: `{servers: {name: {enabled, tools: {tool:
// {description, input_schema}}}}}`) for the servers that run, with the catalog's descriptions
// and input schemas in place of ours, and nothing else: a server the catalog does not know
// offers no tool, and a catalog tool our server does not list is named as missing. Numbers are
// comparable with the paper's only when a model faced the surface the paper's models faced.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ConfigError } from '../errors/index.js';

const TOOL_SURFACES = ['m3bench', 'reference'] as const;

interface SurfaceTool {
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ToolSurface {
  name: (typeof TOOL_SURFACES)[number];
  /** The catalog file the reference surface was read from. */
  catalogFile?: string;
  /** Per server, per tool: what the surface offers. Absent for `m3bench` (everything as listed). */
  servers?: ReadonlyMap<string, ReadonlyMap<string, SurfaceTool>>;
}

export const fullSurface: ToolSurface = { name: 'm3bench' };

const catalogTool = z.object({ description: z.string(), input_schema: z.record(z.string(), z.unknown()) }).loose();
const catalogServer = z.object({ enabled: z.boolean().optional(), tools: z.record(z.string(), catalogTool) }).loose();
const catalogFile = z.object({ servers: z.record(z.string(), catalogServer) }).loose();

/** Where `--tool-surface reference` looks for the catalog when no file is named. */
function defaultCatalogFiles(root: string): string[] {
  return [path.join(root, 'json', 'tools_catalog.json'), path.resolve(root, '..', 'shared', 'data', 'm3bench', 'tools_catalog.json')];
}

/**
 * The reference surface from a catalog file; disabled servers offer nothing, as in the reference.
 * @internal Exported for its tests.
 */
export function loadReferenceSurface(file: string): ToolSurface {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the reference tool catalog: ${(error as Error).message}`);
  }
  const parsed = catalogFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(
      `${file}: at ${['$', ...(issue?.path ?? []).map(String)].join('.')}: ${issue?.message ?? 'invalid'} (expected {servers: {name: {tools: {tool: {description, input_schema}}}}})`,
    );
  }
  const servers = new Map<string, Map<string, SurfaceTool>>();
  for (const [server, entry] of Object.entries(parsed.data.servers)) {
    if (entry.enabled === false) continue;
    servers.set(
      server,
      new Map(Object.entries(entry.tools).map(([tool, value]) => [tool, { description: value.description, inputSchema: value.input_schema }])),
    );
  }
  return { name: 'reference', catalogFile: file, servers };
}

/**
 * Parses `--tool-surface`: `m3bench`, `reference` (the catalog from `json/tools_catalog.json`,
 * else ../shared/data/m3bench/tools_catalog.json) or `reference:<catalog file>`.
 */
export function parseToolSurface(value: string | undefined, root: string): ToolSurface {
  if (value === undefined || value === 'm3bench') return fullSurface;
  if (value === 'reference') {
    const candidates = defaultCatalogFiles(root);
    const found = candidates.find((file) => existsSync(file));
    if (!found)
      throw new ConfigError(`--tool-surface reference: no reference tool catalog at ${candidates.join(' or ')}; name one with --tool-surface reference:<file>`);
    return loadReferenceSurface(found);
  }
  if (value.startsWith('reference:')) return loadReferenceSurface(path.resolve(value.slice('reference:'.length)));
  throw new ConfigError(`--tool-surface: expected m3bench, reference or reference:<catalog file>, got "${value}"`);
}

/**
 * One server's tools under the surface: the offered list (catalog order, catalog texts), and
 * the catalog tools the server does not list.
 */
export function surfaceTools(surface: ToolSurface, server: string, listed: readonly Tool[]): { offered: Tool[]; missing: string[] } {
  if (!surface.servers) return { offered: [...listed], missing: [] };
  const wanted = surface.servers.get(server);
  if (!wanted) return { offered: [], missing: [] };
  const byName = new Map(listed.map((tool) => [tool.name, tool]));
  const offered: Tool[] = [];
  const missing: string[] = [];
  for (const [name, entry] of wanted) {
    const tool = byName.get(name);
    if (!tool) missing.push(name);
    else offered.push({ name, description: entry.description, inputSchema: entry.inputSchema as Tool['inputSchema'] });
  }
  return { offered, missing };
}
