// What a run spends, in USD at the price table (src/llm/pricing.ts): the run budget of
// `m3 run --max-cost` (shared by every cell, trial and task of one invocation: once what was paid
// reaches it no new task starts; tasks in flight finish, so a run may end somewhat above it) and
// the cost record of each manifest, which keeps what the provider was paid apart from what the
// model-response cache served (recorded usage, nothing paid: saved).
import { addUsage, type Usage } from '../core/usage.js';

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

/** The usage a run paid for: everything it used but what the cache served. */
export function paidUsage(usage: Usage, served: Usage): Usage {
  return addUsage(usage, { inputTokens: -served.inputTokens, outputTokens: -served.outputTokens, cachedTokens: -served.cachedTokens });
}

/** The manifest's `cost` record: paid vs served (saved) tokens and USD (null: no price), and the tasks each limit stopped. */
export function costRecord(usage: Usage, served: Usage, limited: LimitCounts, costOf: (usage: Usage) => number | null) {
  const paid = paidUsage(usage, served);
  return {
    paidUsd: costOf(paid),
    savedUsd: costOf(served),
    paidTokens: { input: paid.inputTokens, output: paid.outputTokens, cached: paid.cachedTokens },
    servedTokens: { input: served.inputTokens, output: served.outputTokens, cached: served.cachedTokens },
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
