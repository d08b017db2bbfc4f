// The reference tool surface (--tool-surface reference): parsing the option, the catalog
// layout, the per-server filter, and every ground-truth call of the original set validated by
// the harness's argument check against the catalog's schemas (what a run under that surface
// checks before a call leaves the harness).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { ArgumentChecker } from '../../src/mcp/argument-check.js';
import { loadReferenceSurface, parseToolSurface, surfaceTools } from '../../src/mcp/tool-surface.js';
import { sharedDataDir } from '../support/shared-assets.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'm3-surface-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function writeCatalog(name: string, value: unknown): string {
  const file = path.join(work, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

const objectSchema = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required });

describe('parseToolSurface', () => {
  it('keeps the full surface by default and for m3bench', () => {
    expect(parseToolSurface(undefined, work)).toEqual({ name: 'm3bench' });
    expect(parseToolSurface('m3bench', work)).toEqual({ name: 'm3bench' });
  });

  it('reads reference:<file>, skipping disabled servers', () => {
    const file = writeCatalog('catalog.json', {
      servers: {
        a: { enabled: true, tools: { t1: { description: 'one', input_schema: objectSchema({ x: { type: 'string' } }, ['x']) } } },
        off: { enabled: false, tools: { t: { description: 'off', input_schema: objectSchema({}, []) } } },
      },
    });
    const surface = parseToolSurface(`reference:${file}`, work);
    expect(surface.name).toBe('reference');
    expect(surface.catalogFile).toBe(file);
    expect([...(surface.servers?.keys() ?? [])]).toEqual(['a']);
  });

  it('looks for json/tools_catalog.json under the root for plain `reference`, and names where it looked', () => {
    expect(() => parseToolSurface('reference', path.join(work, 'nowhere'))).toThrow(
      /no reference tool catalog at .*json\/tools_catalog\.json or .*tools_catalog\.json/,
    );
  });

  it('refuses an unknown surface and a catalog of another layout, naming the file and field', () => {
    expect(() => parseToolSurface('paper', work)).toThrow('--tool-surface: expected m3bench, reference or reference:<catalog file>, got "paper"');
    const file = writeCatalog('bad.json', { servers: { a: { tools: { t: { description: 3 } } } } });
    expect(() => loadReferenceSurface(file)).toThrow(
      new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: at \\$\\.servers\\.a\\.tools\\.t\\.description`),
    );
  });
});

describe('surfaceTools', () => {
  const file = writeCatalog('filter.json', {
    servers: {
      a: {
        tools: {
          t2: { description: 'catalog two', input_schema: objectSchema({ y: { type: 'integer' } }, ['y']) },
          t1: { description: 'catalog one', input_schema: objectSchema({}, []) },
          gone: { description: 'not listed', input_schema: objectSchema({}, []) },
        },
      },
    },
  });
  const listed: Tool[] = [
    { name: 't1', description: 'ours', inputSchema: { type: 'object', properties: { extra: { type: 'string' } } } },
    { name: 't2', description: 'ours 2', inputSchema: { type: 'object' } },
    { name: 'extra_tool', description: 'only ours', inputSchema: { type: 'object' } },
  ];

  it('offers the catalog tools the server lists, in catalog order with catalog texts, and names the missing ones', () => {
    const { offered, missing } = surfaceTools(loadReferenceSurface(file), 'a', listed);
    expect(offered).toEqual([
      { name: 't2', description: 'catalog two', inputSchema: objectSchema({ y: { type: 'integer' } }, ['y']) },
      { name: 't1', description: 'catalog one', inputSchema: objectSchema({}, []) },
    ]);
    expect(missing).toEqual(['gone']);
  });

  it('offers nothing of a server the catalog does not know, and everything under m3bench', () => {
    expect(surfaceTools(loadReferenceSurface(file), 'email', listed)).toEqual({ offered: [], missing: [] });
    expect(surfaceTools({ name: 'm3bench' }, 'email', listed).offered).toEqual(listed);
  });
});

const dataDir = sharedDataDir();

describe.skipIf(!dataDir)('every ground-truth call of the original set against the reference surface', () => {
  it('checks all 1,355 calls of the scored tasks (and every duplicate entry): only the calls the reference refused too fail', () => {
    const surface = loadReferenceSurface(path.join(dataDir as string, 'tools_catalog.json'));
    const records = JSON.parse(readFileSync(path.join(dataDir as string, 'test_mcp_GT.json'), 'utf8')) as Array<{
      id: string;
      steps: Array<{ calls: Array<{ name: string; arguments?: Record<string, unknown> }> }>;
    }>;
    const checker = new ArgumentChecker();
    const problems: string[] = [];
    let checked = 0;
    for (const record of records) {
      for (const call of record.steps.flatMap((step) => step.calls)) {
        const [server = '', tool = ''] = call.name.split('/');
        const entry = surface.servers?.get(server)?.get(tool);
        checked += 1;
        if (!entry) {
          problems.push(`${record.id} ${call.name}: not offered`);
          continue;
        }
        const catalogTool = { canonicalName: call.name, server, tool, functionName: call.name.replace('/', '__'), ...entry };
        const error = checker.check(catalogTool, call.arguments ?? {});
        if (error) problems.push(`${record.id} ${call.name}: ${error}`);
      }
    }
    const scored = new Map(records.map((record) => [record.id, record]));
    expect([...scored.values()].reduce((sum, record) => sum + record.steps.flatMap((step) => step.calls).length, 0)).toBe(1355);
    expect(checked).toBe(1387);
    // The calls the reference's servers refused too: 00070008's first copy calls draw_circles
    // with {image_path, coordinates} (FastMCP required input_path and circles); the 00180000-06
    // places_nearby_search calls send a raw Places `locationRestriction` instead of location and
    // radiusMeters (test/servers/google-maps); 00250000 calls wiki/summary with {query, n}.
    const nearby = "google-maps/places_nearby_search: arguments must have required property 'location'; arguments must have required property 'radiusMeters'";
    expect([...problems].sort()).toEqual(
      [
        "00070008 imagesorcery-mcp/draw_circles: arguments must have required property 'input_path'; arguments must have required property 'circles'",
        ...['00180000', '00180001', '00180002', '00180003', '00180003', '00180004', '00180005', '00180006', '00180006'].map((id) => `${id} ${nearby}`),
        "00250000 wiki/summary: arguments must have required property 'title'",
      ].sort(),
    );
  });
});
