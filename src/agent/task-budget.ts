// The per-task limits of `m3 run --token-limit`, `--message-limit` and `--cost-limit`: what one
// task's episode (every agent of a workflow included) may spend. Checked before each model
// request: once a limit is reached no further request is sent and the episode ends with the
// limit's end status (src/core/end-status.ts), scored as the model's result. The reply that
// crosses a limit is kept, so a task may end somewhat above it (a reply's size is known only after it).
//
// Tokens and replies count every reply, including those the model-response cache served: they
// bound the episode's behaviour, so a cached rerun stops where the run it reproduces stopped. Cost
// counts what the provider was paid (src/llm/pricing.ts paidCost): a served reply cost nothing, a
// reply a provider batch job answered costs the batch price.
import type { EpisodeEnd } from '../core/end-status.js';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import { addBilledUsage, billingOf, emptyBilledUsage, type BilledUsage, type CostOf } from '../llm/pricing.js';
import type { GenerateResponse } from '../llm/types.js';

export interface TaskLimits {
  /** Input + output tokens (cached input and reasoning tokens included: the drivers count them in). */
  tokens?: number;
  /** Model replies (every request of every stage: prepare, work, end, final). */
  messages?: number;
  /** USD paid at the price table's rates (src/llm/pricing.ts paidCost): cache-served replies cost nothing, batch replies the batch price. */
  costUsd?: number;
}

const integer = new Intl.NumberFormat('en-US');

export class TaskBudget {
  private usage: Usage = emptyUsage();
  private billed: BilledUsage = emptyBilledUsage();
  private replies = 0;

  /** `costOf`: what usage cost at the model's price (null: no price; a cost limit then needs one, checked before the run). */
  constructor(
    private readonly limits: TaskLimits,
    private readonly costOf?: CostOf,
  ) {}

  /** Counts one reply of the episode. */
  observe(response: Pick<GenerateResponse, 'usage' | 'servedFromCache' | 'batch'>): void {
    this.replies += 1;
    this.usage = addUsage(this.usage, response.usage);
    this.billed = addBilledUsage(this.billed, response.usage, billingOf(response));
  }

  /** The end of an episode whose next request a limit forbids, or undefined while every limit allows it. */
  reached(): EpisodeEnd | undefined {
    const { tokens, messages, costUsd } = this.limits;
    const spentTokens = this.usage.inputTokens + this.usage.outputTokens;
    if (tokens !== undefined && spentTokens >= tokens)
      return { status: 'limit_tokens', detail: `${integer.format(spentTokens)} tokens reached the limit of ${integer.format(tokens)}` };
    if (messages !== undefined && this.replies >= messages)
      return { status: 'limit_messages', detail: `${this.replies} model replies reached the limit of ${messages}` };
    const spentUsd = costUsd === undefined ? null : (this.costOf?.(this.billed)?.paidUsd ?? null);
    if (costUsd !== undefined && spentUsd !== null && spentUsd >= costUsd)
      return { status: 'limit_cost', detail: `$${spentUsd.toFixed(6)} reached the limit of $${costUsd}` };
    return undefined;
  }
}

/** Thrown by the episode's request helper when a limit forbids the next request; the episode ends with it. */
export class LimitReached extends Error {
  constructor(readonly end: EpisodeEnd) {
    super(end.detail ?? end.status);
  }
}
