// What a run spends, in USD at the price table (src/llm/pricing.ts): the run budget of
// `m3 run --max-cost` (shared by every cell, trial and task of one invocation: once what was paid
// reaches it no new task starts; tasks in flight finish, so a run may end somewhat above it) and
// the cost record of each manifest, which keeps what the provider was paid apart from what the
// model-response cache served (recorded usage, nothing paid: saved) and what batch pricing took
// off the list price. Every USD figure comes from src/llm/pricing.ts paidCost.
import { addUsage, type Usage } from '../core/usage.js';
import type { BilledUsage, CostOf } from '../llm/pricing.js';

export class RunBudget {
  private spent = 0;

  constructor(readonly maxUsd: number) {}

  /** Adds what one attempt paid (null: the model has no price; refused before the run). */
  spend(usd: number | null): void {
    this.spent += usd ?? 0;
  }

  get spentUsd(): number {
    return this.spent;
  }

  exhausted(): boolean {
    return this.spent >= this.maxUsd;
  }
}

export interface LimitCounts {
  tokens: number;
  messages: number;
  cost: number;
}

export function emptyLimitCounts(): LimitCounts {
  return { tokens: 0, messages: 0, cost: 0 };
}

/** Counts a task that ended on a limit status (anything else leaves the counts as they are). */
export function countLimit(counts: LimitCounts, status: string | undefined): LimitCounts {
  if (status === 'limit_tokens') return { ...counts, tokens: counts.tokens + 1 };
  if (status === 'limit_messages') return { ...counts, messages: counts.messages + 1 };
  if (status === 'limit_cost') return { ...counts, cost: counts.cost + 1 };
  return counts;
}

export function addLimitCounts(a: LimitCounts, b: LimitCounts): LimitCounts {
  return { tokens: a.tokens + b.tokens, messages: a.messages + b.messages, cost: a.cost + b.cost };
}

const tokensOf = (usage: Usage) => ({ input: usage.inputTokens, output: usage.outputTokens, cached: usage.cachedTokens });

/**
 * The manifest's `cost` record: USD paid (standard replies at list price, batch replies at the
 * batch price), saved by the cache (`savedUsd`: the list price of the replies it served) and by
 * batch pricing (`savedByBatchUsd`), all null when the model has no price; the tokens paid for
 * (`paidTokens`, batch tokens included, which `batchTokens` repeats), the tokens served; and the
 * tasks each limit stopped.
 */
export function costRecord(billed: BilledUsage, limited: LimitCounts, costOf: CostOf) {
  const cost = costOf(billed);
  return {
    paidUsd: cost?.paidUsd ?? null,
    savedUsd: cost?.savedByCacheUsd ?? null,
    savedByBatchUsd: cost?.savedByBatchUsd ?? null,
    paidTokens: tokensOf(addUsage(billed.standard, billed.batch)),
    batchTokens: tokensOf(billed.batch),
    servedTokens: tokensOf(billed.cache),
    limited,
  };
}

/** The manifest's `maxCost` record: the budget, what the whole invocation had paid when this file was written, and whether it stopped scheduling. */
export function maxCostRecord(budget: RunBudget, notStarted: number) {
  const reached = budget.exhausted();
  return {
    limitUsd: budget.maxUsd,
    spentUsd: budget.spentUsd,
    reached,
    ...(reached
      ? { note: `--max-cost $${budget.maxUsd} reached ($${budget.spentUsd.toFixed(4)} paid): no new task was started; ${notStarted} task(s) not started` }
      : {}),
  };
}
