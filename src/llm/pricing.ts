// Optional cost accounting: USD per million input / output / cached-input tokens.
// A small default table covers a few well-known models; M3_PRICE_TABLE names a JSON file
// ({"<model or provider:model>": {"input": 2.5, "output": 10, "cached": 1.25, "checkedAt": "2026-11-29"}})
// whose entries override and extend it. Unknown models cost `undefined`, never a guess. Every
// entry states the day its prices were last checked (`checkedAt`), and every cost figure is
// printed with the entry it used (describePrice), so a stale price is visible where it is used.
// Usage semantics (see the drivers): inputTokens includes cached tokens; cachedTokens is the
// part served from the provider's prompt cache, billed at the cached price.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { EnvMap } from '../config/env-file.js';
import { formatIssues } from '../config/zod-issues.js';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import { ConfigError } from '../errors/index.js';

const priceSchema = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  /** Cached input tokens; defaults to the input price (no discount). */
  cached: z.number().nonnegative().optional(),
  /** The day (YYYY-MM-DD) these prices were last checked against the vendor's price list. */
  checkedAt: z.iso.date(),
});
const tableSchema = z.record(z.string().min(1), priceSchema);

/** One model's prices. */
export type Price = z.infer<typeof priceSchema>;
export type PriceTable = ReadonlyMap<string, Price>;

// List prices in USD per million tokens; override them with M3_PRICE_TABLE. checkedAt is the day
// they were entered into this table (all on 2026-11-29); they have not been re-checked since.
const checkedAt = '2026-11-29';
const defaultPrices: Readonly<Record<string, Price>> = {
  'gpt-4o': { input: 2.5, output: 10, cached: 1.25, checkedAt },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cached: 0.075, checkedAt },
  'gpt-4.1': { input: 2, output: 8, cached: 0.5, checkedAt },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cached: 0.1, checkedAt },
  'gpt-5': { input: 1.25, output: 10, cached: 0.125, checkedAt },
  'gpt-5-mini': { input: 0.25, output: 2, cached: 0.025, checkedAt },
  'claude-sonnet-4': { input: 3, output: 15, cached: 0.3, checkedAt },
  'claude-sonnet-4-5': { input: 3, output: 15, cached: 0.3, checkedAt },
  'claude-opus-4-1': { input: 15, output: 75, cached: 1.5, checkedAt },
  'claude-haiku-4-5': { input: 1, output: 5, cached: 0.1, checkedAt },
  'gemini-2.5-pro': { input: 1.25, output: 10, cached: 0.31, checkedAt },
  'gemini-2.5-flash': { input: 0.3, output: 2.5, cached: 0.075, checkedAt },
  'deepseek-chat': { input: 0.56, output: 1.68, cached: 0.07, checkedAt },
};

/** @internal Exported for its tests. */
export const defaultPriceTable: PriceTable = new Map(Object.entries(defaultPrices));

/** Validates a price table read from `file` (a JSON value). */
function parsePriceTable(value: unknown, file: string): Record<string, Price> {
  const parsed = tableSchema.safeParse(value);
  if (!parsed.success) {
    throw new ConfigError(
      `invalid price table (expected {"<model>": {"input": <USD per 1M>, "output": <USD per 1M>, "cached"?: <USD per 1M>, "checkedAt": "YYYY-MM-DD"}}):\n${formatIssues(file, parsed.error.issues)}`,
    );
  }
  return parsed.data;
}

/** The default table, overlaid by the file named in M3_PRICE_TABLE (if set). */
export function loadPriceTable(env: EnvMap): PriceTable {
  const file = env.M3_PRICE_TABLE?.trim();
  if (!file) return defaultPriceTable;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`M3_PRICE_TABLE=${file}: cannot read the file (${error instanceof Error ? error.message : String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`M3_PRICE_TABLE=${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return new Map([...defaultPriceTable, ...Object.entries(parsePriceTable(json, file))]);
}

// Dated or versioned releases of a priced model: gpt-4o-2024-08-06, claude-haiku-4-5-20251001,
// gemini-2.5-flash-preview-05-20, gemini-2.0-flash-001. Other suffixes (gpt-5-nano) stay unknown.
const releaseSuffix = /^-(\d{4}-\d{2}-\d{2}|\d{8}|\d{3}|latest|preview[-\w.]*|exp[-\w.]*)$/;

/**
 * Finds the price of `provider:model`, `model`, or a dated release of a listed model.
 */
export function findPrice(spec: string, table: PriceTable = defaultPriceTable): { key: string; price: Price } | undefined {
  const colon = spec.indexOf(':');
  const model = colon >= 0 ? spec.slice(colon + 1) : spec;
  for (const key of [spec, model]) {
    const price = table.get(key);
    if (price) return { key, price };
  }
  let best: { key: string; price: Price } | undefined;
  for (const [key, price] of table) {
    if (model.startsWith(key) && releaseSuffix.test(model.slice(key.length)) && key.length > (best?.key.length ?? 0)) best = { key, price };
  }
  return best;
}

/** Cost in USD of one request (or a sum of usages), or undefined when the model has no price. */
export function costUsd(spec: string, usage: Usage, table: PriceTable = defaultPriceTable): number | undefined {
  const found = findPrice(spec, table);
  if (!found) return undefined;
  const { price } = found;
  const cached = Math.min(usage.cachedTokens, usage.inputTokens);
  const uncached = usage.inputTokens - cached;
  return (uncached * price.input + cached * (price.cached ?? price.input) + usage.outputTokens * price.output) / 1_000_000;
}

/** `gpt-4o: $2.5 in / $10 out / $1.25 cached per 1M tokens, checked 2026-11-29`: printed beside a cost. */
function describePrice(found: { key: string; price: Price }): string {
  const { price } = found;
  return `${found.key}: $${price.input} in / $${price.output} out / $${price.cached ?? price.input} cached per 1M tokens, checked ${price.checkedAt}`;
}

/** What a run records about the price its costs used (null: the model has no price, its cost is n/a). */
export function priceRecord(spec: string, table: PriceTable, tableFile: string | undefined): string | null {
  const found = findPrice(spec, table);
  if (!found) return null;
  return `${describePrice(found)} (built-in table${tableFile?.trim() ? ` overlaid by M3_PRICE_TABLE=${tableFile.trim()}` : ''})`;
}

/**
 * What the vendors' batch APIs bill against the synchronous price: half, for all three (OpenAI's
 * Batch API, Anthropic's Message Batches and Gemini's batch mode each list batch requests at 50 %
 * of the standard per-token prices on their pricing pages). Entered 2026-12-02, like the table
 * above not re-checked since; the run manifest states it beside every batch cost.
 */
export const batchDiscount = {
  factor: 0.5,
  source: 'OpenAI Batch API, Anthropic Message Batches and Gemini batch mode price pages: 50 % of standard token prices (entered 2026-12-02)',
} as const;

/**
 * How a reply was paid for: `standard` (a synchronous request, list price), `batch` (answered by a
 * provider batch job, list price times batchDiscount.factor) or `cache` (served by the
 * model-response cache: no request was made, nothing paid; its list price is what it saved).
 */
export type Billing = 'standard' | 'batch' | 'cache';

/** A reply's billing, from what the driver stack marked on it (the cache, the batch collector). */
export function billingOf(response: { servedFromCache?: true; batch?: unknown }): Billing {
  if (response.servedFromCache) return 'cache';
  return response.batch ? 'batch' : 'standard';
}

/** Usage split by billing: what an episode, a trial or a run used, each part priced its own way. */
export interface BilledUsage {
  standard: Usage;
  batch: Usage;
  cache: Usage;
}

export function emptyBilledUsage(): BilledUsage {
  return { standard: emptyUsage(), batch: emptyUsage(), cache: emptyUsage() };
}

/** Adds one reply's usage under its billing. */
export function addBilledUsage(total: BilledUsage, usage: Usage, billing: Billing): BilledUsage {
  return { ...total, [billing]: addUsage(total[billing], usage) };
}

export function sumBilledUsage(a: BilledUsage, b: BilledUsage): BilledUsage {
  return { standard: addUsage(a.standard, b.standard), batch: addUsage(a.batch, b.batch), cache: addUsage(a.cache, b.cache) };
}

/** What usage cost: paid to the provider, and saved against the list price by the cache and by batch pricing. */
export interface PaidCost {
  paidUsd: number;
  /** The list price of every reply: what the same replies would have cost as synchronous requests. */
  listUsd: number;
  /** The list price of the replies the cache served (paid nothing). */
  savedByCacheUsd: number;
  /** What batch pricing took off the list price of the batch-answered replies. */
  savedByBatchUsd: number;
}

/**
 * The one price computation of what was paid (episodes, trials, runs, model calls, llm_stats.json,
 * the task limits and --max-cost all read it): standard replies at list price, batch replies at
 * the batch price, cache-served replies at $0. Undefined when the model has no price.
 */
export function paidCost(spec: string, billed: BilledUsage, table: PriceTable = defaultPriceTable): PaidCost | undefined {
  const standard = costUsd(spec, billed.standard, table);
  const batch = costUsd(spec, billed.batch, table);
  const cache = costUsd(spec, billed.cache, table);
  if (standard === undefined || batch === undefined || cache === undefined) return undefined;
  const batchPaid = batch * batchDiscount.factor;
  return { paidUsd: standard + batchPaid, listUsd: standard + batch + cache, savedByCacheUsd: cache, savedByBatchUsd: batch - batchPaid };
}

/** What usage cost, at one model's price (null: the model has no price): the runner's cost function. */
export type CostOf = (billed: BilledUsage) => PaidCost | null;

/** The runner's cost function of `spec` at `table`. */
export function costOfModel(spec: string, table: PriceTable): CostOf {
  return (billed) => paidCost(spec, billed, table) ?? null;
}

/** The paid cost of one reply (a model call row), or undefined when the model has no price. */
export function paidCostOfReply(spec: string, usage: Usage, billing: Billing, table: PriceTable = defaultPriceTable): PaidCost | undefined {
  return paidCost(spec, addBilledUsage(emptyBilledUsage(), usage, billing), table);
}
