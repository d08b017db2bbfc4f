// The reference's tool surface for server tests: the catalog entry of a server
// (tools_catalog.json), every ground-truth call to it (test_mcp_GT.json), and two checks —
// schema parity of the tools a server lists with the catalog, and every GT call passing the
// harness's own argument check (src/mcp/argument-check.ts) against the listed schemas; and
// the shape of a server's curated fallback fixtures.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ArgumentChecker } from '../../src/mcp/argument-check.js';
import { repoRoot, sharedDataDir } from './shared-assets.js';

export interface CatalogProperty {
  type?: string;
  enum?: unknown[];
  default?: unknown;
  nullable?: boolean;
  items?: unknown;
}

export interface CatalogTool {
  description: string;
  input_schema: { type: 'object'; properties: Record<string, CatalogProperty>; required: string[] };
  gt_calls: number;
}

export interface GtCall {
  taskId: string;
  tool: string;
  arguments: Record<string, unknown>;
}

/** The catalog tools of one server, or undefined when the shared data is absent. */
export function catalogTools(server: string): Record<string, CatalogTool> | undefined {
  const dir = sharedDataDir();
  if (!dir) return undefined;
  const catalog = JSON.parse(readFileSync(path.join(dir, 'tools_catalog.json'), 'utf8')) as { servers: Record<string, { tools: Record<string, CatalogTool> }> };
  const entry = catalog.servers[server];
  if (!entry) throw new Error(`tools_catalog.json has no server "${server}"`);
  return entry.tools;
}

/** Every GT call to `server` (all entries, duplicates included), or undefined without shared data. */
export function gtCalls(server: string): GtCall[] | undefined {
  const dir = sharedDataDir();
  if (!dir) return undefined;
  const records = JSON.parse(readFileSync(path.join(dir, 'test_mcp_GT.json'), 'utf8')) as Array<{
    id: string;
    steps: Array<{ calls: Array<{ name: string; arguments?: Record<string, unknown> }> }>;
  }>;
  const calls: GtCall[] = [];
  for (const record of records) {
    for (const step of record.steps) {
      for (const call of step.calls) {
        const [prefix, ...rest] = call.name.split('/');
        if (prefix === server) calls.push({ taskId: record.id, tool: rest.join('/'), arguments: call.arguments ?? {} });
      }
    }
  }
  return calls;
}

/** The distinct argument objects of the GT calls to one tool, in first-seen order. */
export function distinctArguments(calls: readonly GtCall[], tool: string): Array<Record<string, unknown>> {
  const seen = new Map<string, Record<string, unknown>>();
  for (const call of calls) if (call.tool === tool) seen.set(JSON.stringify(call.arguments), call.arguments);
  return [...seen.values()];
}

function typeOf(schema: Record<string, unknown>): { type: string | undefined; nullable: boolean } {
  const raw = schema.type;
  if (Array.isArray(raw)) {
    const types = raw.filter((item) => item !== 'null') as string[];
    return { type: types.length === 1 ? types[0] : types.join('|'), nullable: raw.includes('null') };
  }
  if (Array.isArray(schema.anyOf)) {
    const types = (schema.anyOf as Array<Record<string, unknown>>).map((item) => item.type as string);
    const real = types.filter((type) => type !== 'null');
    return { type: real.length === 1 ? real[0] : real.join('|'), nullable: types.includes('null') };
  }
  return { type: raw as string | undefined, nullable: false };
}

/**
 * Differences between the listed tools and the catalog: a missing tool, a missing or extra
 * property, another type, enum, default or nullability, another required set. `relaxedRequired`
 * names tools whose required set is deliberately smaller than the reference's (documented in
 * the server) and gives the required set expected instead.
 */
export function schemaParityProblems(listed: readonly Tool[], catalog: Record<string, CatalogTool>, relaxedRequired: Record<string, string[]> = {}): string[] {
  const problems: string[] = [];
  const byName = new Map(listed.map((tool) => [tool.name, tool]));
  for (const [name, expected] of Object.entries(catalog)) {
    const tool = byName.get(name);
    if (!tool) {
      problems.push(`${name}: not listed`);
      continue;
    }
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
    const wanted = expected.input_schema.properties;
    for (const key of Object.keys(properties)) if (!(key in wanted)) problems.push(`${name}.${key}: not in the reference schema`);
    for (const [key, reference] of Object.entries(wanted)) {
      const actual = properties[key];
      if (!actual) {
        problems.push(`${name}.${key}: missing`);
        continue;
      }
      const { type, nullable } = typeOf(actual);
      if (type !== reference.type) problems.push(`${name}.${key}: type ${type}, reference ${reference.type}`);
      if (nullable !== (reference.nullable ?? false)) problems.push(`${name}.${key}: nullable ${nullable}, reference ${reference.nullable ?? false}`);
      if (JSON.stringify(actual.enum) !== JSON.stringify(reference.enum))
        problems.push(`${name}.${key}: enum ${JSON.stringify(actual.enum)}, reference ${JSON.stringify(reference.enum)}`);
      if ('default' in reference && JSON.stringify(actual.default) !== JSON.stringify(reference.default)) {
        problems.push(`${name}.${key}: default ${JSON.stringify(actual.default)}, reference ${JSON.stringify(reference.default)}`);
      }
    }
    const required = [...((tool.inputSchema.required as string[] | undefined) ?? [])].sort();
    const expectedRequired = [...(relaxedRequired[name] ?? expected.input_schema.required)].sort();
    if (JSON.stringify(required) !== JSON.stringify(expectedRequired))
      problems.push(`${name}: required ${JSON.stringify(required)}, expected ${JSON.stringify(expectedRequired)}`);
  }
  return problems;
}

/** GT calls whose arguments fail the harness's argument check against the listed schemas. */
export function argumentCheckProblems(server: string, listed: readonly Tool[], calls: readonly GtCall[]): string[] {
  const checker = new ArgumentChecker();
  const byName = new Map(listed.map((tool) => [tool.name, tool]));
  const problems: string[] = [];
  for (const call of calls) {
    const tool = byName.get(call.tool);
    if (!tool) {
      problems.push(`${call.taskId} ${call.tool}: not listed`);
      continue;
    }
    const canonicalName = `${server}/${call.tool}`;
    const error = checker.check(
      {
        canonicalName,
        server,
        tool: call.tool,
        functionName: canonicalName.replace('/', '__'),
        description: tool.description ?? '',
        inputSchema: tool.inputSchema,
      },
      call.arguments,
    );
    if (error) problems.push(`${call.taskId} ${call.tool} ${JSON.stringify(call.arguments)}: ${error}`);
  }
  return problems;
}

/**
 * Problems with a server's curated fallback fixtures (tools/mock_runtime/fixtures/<server>/):
 * each file a JSON array of {arguments: object | "*", result: string, source: string}, named
 * after a listed tool, with arguments that pass the argument check.
 */
export function fallbackFixtureProblems(server: string, listed: readonly Tool[]): string[] {
  const dir = path.join(repoRoot, 'tools', 'mock_runtime', 'fixtures', server);
  if (!existsSync(dir)) return [`${dir}: missing`];
  const problems: string[] = [];
  // assets/ holds the generated files of file and image fixtures (src/fallback/fixtures.ts).
  for (const file of readdirSync(dir).filter((name) => name !== 'assets')) {
    const tool = file.replace(/\.json$/, '');
    const records = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as unknown;
    if (!Array.isArray(records) || records.length === 0) {
      problems.push(`${file}: not a non-empty array`);
      continue;
    }
    const calls: GtCall[] = [];
    for (const [index, record] of (records as Array<Record<string, unknown>>).entries()) {
      if (typeof record.result !== 'string' || record.result === '') problems.push(`${file}[${index}].result: expected a non-empty string`);
      if (typeof record.source !== 'string' || record.source === '') problems.push(`${file}[${index}].source: expected a non-empty string`);
      if (record.arguments === '*') continue;
      if (!record.arguments || typeof record.arguments !== 'object') problems.push(`${file}[${index}].arguments: expected an object or "*"`);
      else calls.push({ taskId: `${file}[${index}]`, tool, arguments: record.arguments as Record<string, unknown> });
    }
    problems.push(...argumentCheckProblems(server, listed, calls));
  }
  return problems;
}
