// The eight keyed web-API servers as a group: each starts WITHOUT its key and lists the
// reference's tools with compatible schemas (names, required set, types), every GT call to it
// passes our argument check (the documented exceptions aside), a call fails fast with a typed
// missing_credentials error naming the variable(s), and the offline smoke passes against the
// fake its smoke declaration ships.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgumentChecker } from '../../src/mcp/argument-check.js';
import { startHttpFake } from '../../servers/shared/http-fake.js';
import type { ServerSmoke } from '../../servers/shared/smoke.js';
import { smoke as amazonSmoke } from '../../servers/amazon/smoke.js';
import { smoke as foodNutritionSmoke } from '../../servers/food-nutrition/smoke.js';
import { smoke as googleAirSmoke } from '../../servers/google-air/smoke.js';
import { smoke as googleMapsSmoke } from '../../servers/google-maps/smoke.js';
import { smoke as linkImageSmoke } from '../../servers/linkimage/smoke.js';
import { smoke as nationalParksSmoke } from '../../servers/nationalparks/smoke.js';
import { smoke as redditSmoke } from '../../servers/reddit/smoke.js';
import { smoke as tmdbSmoke } from '../../servers/tmdb/smoke.js';
import { repoRoot, sharedDataDir } from '../support/shared-assets.js';
import { callWebTool, groundTruthCalls, startWebServer, type WebServerProcess } from '../support/keyed-web-server.js';

interface KeyedServer {
  key: string;
  folder: string;
  credentials: string[];
  probe: { tool: string; args: Record<string, unknown> };
  smoke: ServerSmoke;
  /** GT calls the reference itself refused (STATS.md §8), with the reason. */
  refusedGtCalls?: (tool: string, args: Record<string, unknown>) => boolean;
}

const servers: KeyedServer[] = [
  {
    key: 'google-maps',
    folder: 'google-maps',
    credentials: ['GOOGLE_MAPS_API_KEY'],
    probe: { tool: 'geocode', args: { address: 'Paris' } },
    smoke: googleMapsSmoke,
    // The 9 travelcomparison calls pass a raw `locationRestriction` instead of the required location + radiusMeters.
    refusedGtCalls: (tool, args) => tool === 'places_nearby_search' && !('location' in args),
  },
  { key: 'amazon', folder: 'amazon', credentials: ['RAINFOREST_API_KEY'], probe: { tool: 'search_products', args: { keywords: 'pepsi' } }, smoke: amazonSmoke },
  {
    key: 'Reddit-MCP-Server',
    folder: 'reddit',
    credentials: ['REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET', 'REDDIT_REFRESH_TOKEN'],
    probe: { tool: 'search_hot_posts', args: { subreddit: 'pineapple', limit: 25 } },
    smoke: redditSmoke,
  },
  {
    key: 'google-air',
    folder: 'google-air',
    credentials: ['GOOGLE_MAPS_API_KEY'],
    probe: { tool: 'current_conditions', args: { lat: 41.14, lng: -8.61 } },
    smoke: googleAirSmoke,
  },
  {
    key: 'nationalparks',
    folder: 'nationalparks',
    credentials: ['NPS_API_KEY'],
    probe: { tool: 'getAlerts', args: { parkCode: 'yose' } },
    smoke: nationalParksSmoke,
  },
  {
    key: 'tmdb',
    folder: 'tmdb',
    credentials: ['TMDB_ACCESS_TOKEN', 'TMDB_API_KEY'],
    probe: { tool: 'search_movies', args: { query: 'Superman' } },
    smoke: tmdbSmoke,
  },
  {
    key: 'food_nutrition_mcp',
    folder: 'food-nutrition',
    credentials: ['EDAMAM_APP_ID', 'EDAMAM_APP_KEY'],
    probe: { tool: 'get_nutrition', args: { query: '1 medium pear' } },
    smoke: foodNutritionSmoke,
  },
  {
    key: 'linkimage-mcp',
    folder: 'linkimage',
    credentials: ['UNSPLASH_ACCESS_KEY'],
    probe: { tool: 'fetch_unsplash_image', args: { url: 'https://unsplash.com/photos/colorful-buildings-on-a-dock-tl70XmyAKeg' } },
    smoke: linkImageSmoke,
  },
];

interface CatalogEntry {
  input_schema: { properties: Record<string, { type?: string; items?: { type?: string } }>; required: string[] };
}

function catalogTools(key: string): Record<string, CatalogEntry> | undefined {
  const dir = sharedDataDir();
  if (!dir) return undefined;
  const catalog = JSON.parse(readFileSync(path.join(dir, 'tools_catalog.json'), 'utf8')) as {
    servers: Record<string, { tools: Record<string, CatalogEntry> }>;
  };
  return catalog.servers[key]?.tools;
}

/** The JSON types a listed property admits (`type`, a type list, or anyOf branches). */
function typesOf(schema: Record<string, unknown> | undefined): string[] {
  if (!schema) return [];
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Array<Record<string, unknown>>).flatMap(typesOf);
  if (Array.isArray(schema.type)) return schema.type as string[];
  return typeof schema.type === 'string' ? [schema.type] : [];
}

function itemTypesOf(schema: Record<string, unknown> | undefined): string[] {
  if (!schema) return [];
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Array<Record<string, unknown>>).flatMap(itemTypesOf);
  return typesOf(schema.items as Record<string, unknown> | undefined);
}

const keyless = new Map<string, { process: WebServerProcess; tools: Tool[] }>();

beforeAll(async () => {
  for (const server of servers) {
    const process = await startWebServer(server.folder, {});
    keyless.set(server.key, { process, tools: (await process.client.listTools()).tools });
  }
});

afterAll(async () => {
  for (const { process } of keyless.values()) await process.close();
});

describe.each(servers)('$key', (server) => {
  it('starts without its key and lists the reference tools with compatible schemas', (context) => {
    const listed = keyless.get(server.key)?.tools ?? [];
    const expected = catalogTools(server.key);
    if (!expected) return context.skip('tools_catalog.json not found under ../shared/data/m3bench');
    expect(listed.map((tool) => tool.name).sort()).toEqual(Object.keys(expected).sort());
    for (const tool of listed) {
      const want = expected[tool.name]?.input_schema;
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
      expect(Object.keys(properties).sort(), tool.name).toEqual(Object.keys(want?.properties ?? {}).sort());
      expect([...(tool.inputSchema.required ?? [])].sort(), tool.name).toEqual([...(want?.required ?? [])].sort());
      for (const [name, property] of Object.entries(want?.properties ?? {})) {
        const types = typesOf(properties[name]);
        // The catalog's "number" for a zod number is what JSON Schema calls number or integer.
        if (property.type)
          expect(
            types.some((type) => type === property.type || (property.type === 'number' && type === 'integer')),
            `${tool.name}.${name}: ${types.join('|')}`,
          ).toBe(true);
        if (property.items?.type) expect(itemTypesOf(properties[name]), `${tool.name}.${name}[]`).toContain(property.items.type);
      }
    }
  });

  it('accepts every GT call under our argument check (except the calls the reference refused too)', (context) => {
    const listed = keyless.get(server.key)?.tools ?? [];
    const checker = new ArgumentChecker();
    let checked = 0;
    for (const tool of listed) {
      const calls = groundTruthCalls(`${server.key}/${tool.name}`);
      if (!calls) return context.skip('shared data not found');
      const catalogTool = {
        canonicalName: `${server.key}/${tool.name}`,
        server: server.key,
        tool: tool.name,
        functionName: tool.name,
        description: '',
        inputSchema: tool.inputSchema,
      };
      for (const call of calls) {
        const problem = checker.check(catalogTool, call.arguments);
        if (server.refusedGtCalls?.(tool.name, call.arguments)) expect(problem, `${tool.name} ${JSON.stringify(call.arguments)}`).toMatch(/required property/);
        else expect(problem, `${tool.name} ${call.taskId} ${JSON.stringify(call.arguments)}`).toBeUndefined();
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('ships fallback fixtures whose arguments fit the tool and are GT calls, with the text the tool returns', () => {
    const dir = path.join(repoRoot, 'tools/mock_runtime/fixtures', server.key);
    if (!existsSync(dir)) return;
    const listed = new Map((keyless.get(server.key)?.tools ?? []).map((tool) => [tool.name, tool]));
    const checker = new ArgumentChecker();
    // assets/ holds the generated files of file and image fixtures (src/fallback/fixtures.ts).
    for (const file of readdirSync(dir).filter((entry) => entry !== 'assets')) {
      const name = file.replace(/\.json$/, '');
      const tool = listed.get(name);
      expect(tool, `${server.key}/${file} names no tool of the server`).toBeDefined();
      const records = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Array<{
        arguments: Record<string, unknown> | '*';
        result: unknown;
        source: unknown;
      }>;
      expect(records.length).toBeGreaterThan(0);
      const gt = (groundTruthCalls(`${server.key}/${name}`) ?? []).map((call) => JSON.stringify(call.arguments));
      for (const record of records) {
        expect(typeof record.result === 'string' && record.result.length > 0, `${file}: result must be the tool's text`).toBe(true);
        expect(typeof record.source === 'string' && record.source.length > 20, `${file}: source must say where the shape came from`).toBe(true);
        if (record.arguments === '*' || !tool) continue;
        const catalogTool = {
          canonicalName: `${server.key}/${name}`,
          server: server.key,
          tool: name,
          functionName: name,
          description: '',
          inputSchema: tool.inputSchema,
        };
        expect(checker.check(catalogTool, record.arguments), `${file} ${JSON.stringify(record.arguments)}`).toBeUndefined();
        if (gt.length > 0) expect(gt, `${file}: arguments should be an exact GT call`).toContain(JSON.stringify(record.arguments));
      }
    }
  });

  it('fails a call fast with a typed missing_credentials error naming the variable', async () => {
    const process = keyless.get(server.key)?.process;
    if (!process) throw new Error('server did not start');
    const answer = await callWebTool(process, server.probe.tool, server.probe.args);
    expect(answer.isError).toBe(true);
    expect(answer.meta?.code).toBe('missing_credentials');
    for (const name of server.credentials) expect(answer.text).toContain(name);
  });

  it('passes its offline smoke against the fake it declares', async () => {
    const offline = server.smoke.offline;
    if (!offline) throw new Error(`${server.key} declares no offline smoke`);
    const fake = await startHttpFake(offline.routes);
    const env = { ...Object.fromEntries(Object.entries(offline.env).map(([name, prefix]) => [name, `${fake.url}${prefix}`])), ...(offline.credentials ?? {}) };
    const process = await startWebServer(server.folder, env);
    try {
      const answer = await callWebTool(process, server.smoke.tool, server.smoke.args);
      expect(answer.isError, answer.text).toBe(false);
      expect(server.smoke.accept(answer.text), answer.text).toBe(true);
      expect(fake.requests.length).toBeGreaterThan(0);
    } finally {
      await process.close();
      await fake.close();
    }
  });
});
