import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadToolCatalog, parseToolCatalog, toolsPerServer } from '../../../src/eval/call/catalog.js';
import { evaluateCalls, hasIllegalCalling } from '../../../src/eval/call/evaluate.js';
import { analyseResult, isEmptyResult } from '../../../src/eval/call/result-patterns.js';
import { classifyCallByRules, SchemaValidators } from '../../../src/eval/call/rules.js';
import { loadPredictions } from '../../../src/tasks/load.js';
import { sharedDataDir } from '../../support/shared-assets.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const catalog = loadToolCatalog(path.join(fixtures, 'catalog-list-tools.json'));
const predictions = loadPredictions(path.join(fixtures, 'predictions.json'));

describe('call rules on the fixture predictions', () => {
  it('labels every call with the expected category and rule', async () => {
    const analysis = await evaluateCalls(predictions, { catalog });
    const labels = analysis.per_call.map((record) => `${record.id}#${record.step}.${record.index} ${record.label} ${record.rule ?? ''}`);
    expect(labels).toEqual([
      't1#1.0 success normal_result',
      't1#1.1 unknown_tool result_unknown_tool',
      't1#2.0 success normal_result',
      't1#2.1 invalid_arguments schema_violation',
      't2#1.0 invalid_arguments schema_violation',
      't2#1.1 resource_not_found message',
      't2#1.2 resource_not_found http_status',
      't2#1.3 invalid_arguments unexplained_error',
      't2#1.4 unclassified message',
      't2#1.5 unknown_tool not_in_catalog',
      't2#1.6 invalid_arguments arguments_not_object',
      't2#1.7 resource_not_found empty_result',
      't2#1.8 invalid_arguments message',
      't2#1.9 invalid_arguments http_status',
      't2#1.10 invalid_arguments schema_violation',
      't2#1.11 unknown_tool missing_name',
    ]);
    expect(analysis.per_call[7]?.source).toBe('fallback');
    expect(analysis.per_call[8]?.reason).toBe('infrastructure');
    expect(analysis.per_call[3]?.detail).toMatch(/allowed values/);
  });

  it('writes the five reference counters plus separate units and unclassified', async () => {
    const analysis = await evaluateCalls(predictions, { catalog, predictionsFile: 'predictions.json' });
    expect({
      illegal_calling: analysis.illegal_calling,
      unknown_tool: analysis.unknown_tool,
      invalid_arguments: analysis.invalid_arguments,
      resource_not_found: analysis.resource_not_found,
      success: analysis.success,
    }).toEqual({ illegal_calling: 2, unknown_tool: 3, invalid_arguments: 7, resource_not_found: 3, success: 2 });
    expect(analysis.unclassified).toBe(1);
    expect(analysis.unclassified_reasons).toEqual({ infrastructure: 1, judge_failed: 0 });
    expect(analysis.totals).toEqual({ tasks: 3, calls: 16 });
    expect(analysis.units.illegal_calling).toBe('tasks');
    expect(analysis.units.success).toBe('calls');
    expect(analysis.illegal_calling_ids).toEqual(['t1', 't3']);
    expect(analysis.meta.catalog).toContain('catalog-list-tools.json');
    expect(analysis.meta.judge).toBeNull();
  });

  it('counts illegal calling once per task, however many rounds were empty', () => {
    expect(predictions.map((prediction) => hasIllegalCalling(prediction))).toEqual([true, false, true]);
  });

  it('without a catalog, falls back on the result text only', async () => {
    const analysis = await evaluateCalls(predictions);
    const byPosition = analysis.per_call.map((record) => record.label);
    expect(byPosition[3]).toBe('success'); // enum not checked without a schema
    expect(byPosition[4]).toBe('invalid_arguments'); // "validation error" in the result
    expect(byPosition[9]).toBe('resource_not_found'); // ghost tool: "Method not found"
    expect(analysis.meta.catalog).toBeNull();
  });
});

describe('schema checks with ajv', () => {
  const validators = new SchemaValidators();
  const ok = 'Temperature 50F, cloudy, wind 5 mph from the north-west, humidity 61 percent, with light drizzle expected later. '.repeat(4);

  it('coerces numeric strings like the servers do, but rejects wrong types and missing fields', () => {
    const verdict = (args: unknown) => classifyCallByRules({ name: 'wiki/search', arguments: args, result: ok }, catalog, validators);
    expect(verdict({ query: 'x', limit: '5' })).toMatchObject({ kind: 'decided', label: 'success' });
    expect(verdict({ query: 'x', limit: 'five' })).toMatchObject({ kind: 'decided', label: 'invalid_arguments', rule: 'schema_violation' });
    expect(verdict({ limit: 3 })).toMatchObject({
      kind: 'decided',
      label: 'invalid_arguments',
      detail: expect.stringContaining("must have required property 'query'"),
    });
    expect(verdict([1, 2])).toMatchObject({ kind: 'decided', label: 'invalid_arguments', rule: 'arguments_not_object' });
  });

  it('leaves the recorded arguments untouched by coercion', () => {
    const args = { query: 'x', limit: '5' };
    classifyCallByRules({ name: 'wiki/search', arguments: args, result: ok }, catalog, validators);
    expect(args.limit).toBe('5');
  });

  it('skips a schema that does not compile instead of failing the call', () => {
    const broken = parseToolCatalog(
      { tools: [{ canonicalName: 'x/y', inputSchema: { type: 'object', properties: { a: { type: 'no-such-type' } } } }] },
      'inline',
    );
    expect(classifyCallByRules({ name: 'x/y', arguments: { a: 1 }, result: ok }, broken, new SchemaValidators())).toMatchObject({ label: 'success' });
  });
});

describe('result text patterns', () => {
  it('reads HTTP statuses in the usual spellings', () => {
    expect(analyseResult('[Tool error] HTTP 422: Unprocessable Entity')).toMatchObject({ kind: 'invalid_arguments', rule: 'http_status' });
    expect(analyseResult('{"error": "gone", "status": 404}')).toMatchObject({ kind: 'resource_not_found', rule: 'http_status' });
    expect(analyseResult('[Tool error] 503 Server Error: Service Unavailable')).toMatchObject({ kind: 'infrastructure' });
    expect(analyseResult('[Tool error] status code: 401')).toMatchObject({ kind: 'infrastructure' });
  });

  it('does not treat "not found" inside a long successful result as an error', () => {
    const article = `The tomb was not found until 1922, when Howard Carter opened it. ${'It held thousands of objects. '.repeat(20)}`;
    expect(analyseResult(article)).toEqual({ kind: 'ok' });
    expect(analyseResult('No matching records found.')).toMatchObject({ kind: 'resource_not_found' });
  });

  it('recognises empty results', () => {
    for (const text of ['', '[]', '{}', '[no textual content]', '{"items": [], "note": ""}']) expect(isEmptyResult(text)).toBe(true);
    expect(isEmptyResult('{"items": [], "total": 0}')).toBe(false);
  });
});

describe('tool catalogs', () => {
  it('reads the list-tools JSON shape', () => {
    expect([...catalog.tools.keys()]).toEqual(['weather/get_weather', 'wiki/summary', 'wiki/search', 'amazon/search_products']);
    expect(toolsPerServer(catalog)).toEqual([
      { server: 'wiki', count: 2 },
      { server: 'amazon', count: 1 },
      { server: 'weather', count: 1 },
    ]);
  });

  it('reads the reference mcp_tools_with_desc.json shape with categories', () => {
    const parsed = parseToolCatalog({ math: { add: { description: 'sum', catalogry: 'Academic & Knowledge' } }, ppt: { new: { description: '' } } }, 'inline');
    expect(parsed.tools.get('math/add')).toMatchObject({ server: 'math', tool: 'add', category: 'Academic & Knowledge' });
    expect(parsed.tools.get('ppt/new')?.inputSchema).toBeUndefined();
  });

  it('names the file and position of a bad entry', () => {
    expect(() => parseToolCatalog({ tools: [{ description: 'no name' }] }, 'tools.json')).toThrow(/tools\.json: at \$\[0\]: a tool needs "canonicalName"/);
  });

  const dataDir = sharedDataDir();
  it.skipIf(!dataDir)('reads the shared static catalog, leaving out disabled servers', () => {
    const shared = loadToolCatalog(path.join(dataDir ?? '', 'tools_catalog.json'));
    const servers = toolsPerServer(shared);
    expect(servers).toHaveLength(27);
    expect(servers[0]).toEqual({ server: 'ppt', count: 37 });
    expect(shared.tools.has('yolo-service/detect_objects')).toBe(false);
    const verdict = classifyCallByRules({ name: 'weather/get_weather', arguments: { units: 'metric' }, result: 'x' }, shared, new SchemaValidators());
    expect(verdict).toMatchObject({ label: 'invalid_arguments', rule: 'schema_violation' });
  });
});
