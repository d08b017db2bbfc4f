// Cost accounting: price lookup (exact, provider-qualified, dated releases), cached-token
// pricing, and the optional table file from M3_PRICE_TABLE.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { costUsd, defaultPriceTable, findPrice, loadPriceTable, priceRecord } from '../../src/llm/pricing.js';

const dir = mkdtempSync(path.join(tmpdir(), 'm3-pricing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('costUsd', () => {
  it('prices uncached input, cached input and output per million tokens', () => {
    // gpt-4o: $2.50 in, $1.25 cached, $10 out. 1,000,000 input of which 400,000 cached, 100,000 out:
    // 600,000 × 2.5 + 400,000 × 1.25 + 100,000 × 10 = 1.5 + 0.5 + 1.0 = $3.00
    expect(costUsd('openai:gpt-4o', { inputTokens: 1_000_000, outputTokens: 100_000, cachedTokens: 400_000 })).toBeCloseTo(3.0, 10);
    expect(costUsd('gpt-4o-mini', { inputTokens: 2_000, outputTokens: 500, cachedTokens: 0 })).toBeCloseTo((2_000 * 0.15 + 500 * 0.6) / 1e6, 15);
  });

  it('matches dated releases but never guesses for other models', () => {
    expect(findPrice('anthropic:claude-haiku-4-5-20251001')?.key).toBe('claude-haiku-4-5');
    expect(findPrice('gpt-4o-2024-08-06')?.key).toBe('gpt-4o');
    expect(findPrice('gemini:gemini-2.5-flash-preview-05-20')?.key).toBe('gemini-2.5-flash');
    expect(findPrice('gpt-5-nano')).toBeUndefined();
    expect(costUsd('ollama:qwen2.5-vl', { inputTokens: 10, outputTokens: 10, cachedTokens: 0 })).toBeUndefined();
  });

  it('never bills more cached tokens than input tokens', () => {
    expect(costUsd('gpt-4o', { inputTokens: 100, outputTokens: 0, cachedTokens: 500 })).toBeCloseTo((100 * 1.25) / 1e6, 15);
  });
});

describe('price dates', () => {
  it('every built-in entry states the day its prices were last checked, printed with the entry', () => {
    expect(defaultPriceTable.size).toBeGreaterThan(0);
    for (const [key, price] of defaultPriceTable) expect(price.checkedAt, key).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(priceRecord('openai:gpt-4o-2024-08-06', defaultPriceTable, undefined)).toBe(
      'gpt-4o: $2.5 in / $10 out / $1.25 cached per 1M tokens, checked 2026-11-29 (built-in table)',
    );
    expect(priceRecord('replay:gt', defaultPriceTable, undefined)).toBeNull();
  });

  it('refuses a table file entry without checkedAt, naming the file and the entry', () => {
    const undated = path.join(dir, 'undated.json');
    writeFileSync(undated, JSON.stringify({ 'my-model': { input: 1, output: 2 } }));
    expect(() => loadPriceTable({ M3_PRICE_TABLE: undated })).toThrow(/undated\.json: at \$\.my-model\.checkedAt/);
    writeFileSync(undated, JSON.stringify({ 'my-model': { input: 1, output: 2, checkedAt: 'last week' } }));
    expect(() => loadPriceTable({ M3_PRICE_TABLE: undated })).toThrow(/my-model\.checkedAt/);
  });
});

describe('loadPriceTable', () => {
  it('returns the defaults without M3_PRICE_TABLE', () => {
    expect(loadPriceTable({})).toBe(defaultPriceTable);
  });

  it('overlays a table file: provider-qualified keys, new models, cached price defaulting to input', () => {
    const file = path.join(dir, 'prices.json');
    writeFileSync(
      file,
      JSON.stringify({
        'ollama:qwen2.5-vl': { input: 0, output: 0, checkedAt: '2026-12-01' },
        'gpt-4o': { input: 5, output: 15, checkedAt: '2026-12-01' },
        'my-model': { input: 1, output: 2, checkedAt: '2026-12-01' },
      }),
    );
    const table = loadPriceTable({ M3_PRICE_TABLE: file });
    expect(costUsd('ollama:qwen2.5-vl', { inputTokens: 1e6, outputTokens: 1e6, cachedTokens: 0 }, table)).toBe(0);
    expect(costUsd('openai:gpt-4o', { inputTokens: 1e6, outputTokens: 0, cachedTokens: 1e6 }, table)).toBe(5);
    expect(costUsd('vllm:my-model', { inputTokens: 1e6, outputTokens: 1e6, cachedTokens: 0 }, table)).toBe(3);
    expect(costUsd('claude-sonnet-4', { inputTokens: 1e6, outputTokens: 0, cachedTokens: 0 }, table)).toBe(3);
  });

  it('names the file and the bad field', () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ 'gpt-4o': { input: -1, output: 10, checkedAt: '2026-12-01' } }));
    expect(() => loadPriceTable({ M3_PRICE_TABLE: bad })).toThrow(ConfigError);
    expect(() => loadPriceTable({ M3_PRICE_TABLE: bad })).toThrow(/bad\.json: at \$\.gpt-4o\.input/);
    const notJson = path.join(dir, 'broken.json');
    writeFileSync(notJson, '{"gpt-4o": ');
    expect(() => loadPriceTable({ M3_PRICE_TABLE: notJson })).toThrow(/broken\.json: not valid JSON/);
    expect(() => loadPriceTable({ M3_PRICE_TABLE: path.join(dir, 'missing.json') })).toThrow(/missing\.json: cannot read the file/);
  });
});
