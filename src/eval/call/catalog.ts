// Tool catalogs for evaluation and reports. Three on-disk shapes are accepted, because users
// have all three: the live list (`m3 servers list-tools --json`: an array of tools, or
// `{tools: [...]}` / `{servers: [{name, tools}]}`), the shared static catalog
// (`{servers: {name: {enabled, tools: {tool: {description, input_schema}}}}}`) and the reference
// `save/mcp_tools_with_desc.json` (`{server: {tool: {description, catalogry}}}`, no schemas).
import { z } from 'zod';
import { splitCanonical } from '../../core/canonical-name.js';
import { EvaluationError } from '../../errors/index.js';
import { loadJsonFile } from '../../tasks/load-json.js';

export interface CatalogEntry {
  /** `server/tool`, as predictions and ground truth write it. */
  canonicalName: string;
  server: string;
  tool: string;
  description: string;
  /** JSON Schema of the arguments; absent when the catalog carries none. */
  inputSchema?: Record<string, unknown>;
  category?: string;
}

export interface ToolCatalog {
  source: string;
  tools: ReadonlyMap<string, CatalogEntry>;
}

const schemaObject = z.record(z.string(), z.unknown());

const listedTool = z
  .object({
    canonicalName: z.string().optional(),
    name: z.string().optional(),
    server: z.string().optional(),
    tool: z.string().optional(),
    description: z.string().nullish(),
    inputSchema: schemaObject.optional(),
    input_schema: schemaObject.optional(),
    category: z.string().optional(),
    catalogry: z.string().optional(),
  })
  .loose();

const listedServer = z.object({ name: z.string(), tools: z.array(listedTool) }).loose();

const staticTool = z
  .object({
    description: z.string().nullish(),
    input_schema: schemaObject.optional(),
    inputSchema: schemaObject.optional(),
    catalogry: z.string().optional(),
    category: z.string().optional(),
    catalog: z.string().optional(),
    catalogue: z.string().optional(),
  })
  .loose();

const staticServer = z.object({ enabled: z.boolean().optional(), in_config: z.boolean().optional(), tools: z.record(z.string(), staticTool) }).loose();

type ListedTool = z.output<typeof listedTool>;
type StaticTool = z.output<typeof staticTool>;

function fromListed(entry: ListedTool, serverName: string | undefined, file: string, position: string): CatalogEntry {
  const canonical = entry.canonicalName ?? (entry.name?.includes('/') ? entry.name : undefined);
  const parts = canonical ? splitCanonical(canonical) : undefined;
  const server = parts?.server ?? entry.server ?? serverName;
  const tool = parts?.tool ?? entry.tool ?? entry.name;
  if (!server || !tool) {
    throw new EvaluationError(`${file}: at ${position}: a tool needs "canonicalName" ("server/tool") or "server" and "name"/"tool"`);
  }
  const inputSchema = entry.inputSchema ?? entry.input_schema;
  const category = entry.category ?? entry.catalogry;
  return {
    canonicalName: `${server}/${tool}`,
    server,
    tool,
    description: entry.description ?? '',
    ...(inputSchema ? { inputSchema } : {}),
    ...(category ? { category } : {}),
  };
}

function fromStatic(server: string, tool: string, entry: StaticTool): CatalogEntry {
  const inputSchema = entry.input_schema ?? entry.inputSchema;
  const category = entry.catalogry ?? entry.category ?? entry.catalog ?? entry.catalogue;
  return {
    canonicalName: `${server}/${tool}`,
    server,
    tool,
    description: entry.description ?? '',
    ...(inputSchema ? { inputSchema } : {}),
    ...(category ? { category } : {}),
  };
}

function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, file: string, position: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = [position, ...(issue?.path ?? []).map(String)].join('.');
    throw new EvaluationError(`${file}: at ${where}: ${issue?.message ?? 'invalid tool entry'} (expected a tool catalog, see src/eval/call/catalog.ts)`);
  }
  return parsed.data;
}

function entriesFromRaw(raw: unknown, file: string): CatalogEntry[] {
  const list = Array.isArray(raw)
    ? raw
    : raw && typeof raw === 'object' && Array.isArray((raw as { tools?: unknown }).tools)
      ? (raw as { tools: unknown[] }).tools
      : undefined;
  if (list) return list.map((item, index) => fromListed(parseOrThrow(listedTool, item, file, `$[${index}]`), undefined, file, `$[${index}]`));
  if (!raw || typeof raw !== 'object') throw new EvaluationError(`${file}: expected a tool catalog object or array, got ${raw === null ? 'null' : typeof raw}`);
  const servers = (raw as { servers?: unknown }).servers;
  if (Array.isArray(servers)) {
    return servers.flatMap((item, index) => {
      const server = parseOrThrow(listedServer, item, file, `$.servers[${index}]`);
      return server.tools.map((tool, toolIndex) => fromListed(tool, server.name, file, `$.servers[${index}].tools[${toolIndex}]`));
    });
  }
  if (servers && typeof servers === 'object') {
    return Object.entries(servers as Record<string, unknown>).flatMap(([name, value]) => {
      const server = parseOrThrow(staticServer, value, file, `$.servers.${name}`);
      // Disabled servers are not exposed to the agent, so their tools count as unknown.
      if (server.enabled === false || server.in_config === false) return [];
      return Object.entries(server.tools).map(([tool, entry]) => fromStatic(name, tool, entry));
    });
  }
  return Object.entries(raw as Record<string, unknown>)
    .filter(([key]) => !key.startsWith('_'))
    .flatMap(([name, value]) => {
      const tools = parseOrThrow(z.record(z.string(), staticTool), value, file, `$.${name}`);
      return Object.entries(tools).map(([tool, entry]) => fromStatic(name, tool, entry));
    });
}

/** @internal Exported for its tests. */
export function parseToolCatalog(raw: unknown, source: string): ToolCatalog {
  const tools = new Map<string, CatalogEntry>();
  for (const entry of entriesFromRaw(raw, source)) tools.set(entry.canonicalName, entry);
  if (tools.size === 0) throw new EvaluationError(`${source}: the tool catalog lists no tools (is every server disabled?)`);
  return { source, tools };
}

export function loadToolCatalog(file: string): ToolCatalog {
  return parseToolCatalog(loadJsonFile(file), file);
}

/** Tool counts per server, sorted by count descending, then name ascending. */
export function toolsPerServer(catalog: ToolCatalog): Array<{ server: string; count: number }> {
  const counts = new Map<string, number>();
  for (const entry of catalog.tools.values()) counts.set(entry.server, (counts.get(entry.server) ?? 0) + 1);
  return [...counts]
    .map(([server, count]) => ({ server, count }))
    .sort((a, b) => b.count - a.count || (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
}
