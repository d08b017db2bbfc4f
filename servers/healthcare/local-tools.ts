// The tools of healthcare-mcp that need no web API: calculate_bmi and the usage counters.
// Usage is counted per task (the host's call context), so one task's model never sees another
// task's calls; without a context every call counts under one default session, as in the
// reference's single-process counter.
import { randomUUID } from 'node:crypto';
import { type Payload, failure, success } from './reference-shape.js';

export function calculateBmi(heightMeters: number, weightKg: number): Payload {
  if (!heightMeters || !weightKg) return failure('Height and weight are required');
  return success({ bmi: (weightKg / (heightMeters * heightMeters)).toFixed(2) });
}

interface Counter {
  sessionId: string;
  start: string;
  total: number;
  tools: Record<string, number>;
}

function newCounter(): Counter {
  return { sessionId: randomUUID(), start: new Date().toISOString(), total: 0, tools: {} };
}

export class UsageCounter {
  private readonly overall = newCounter();
  private readonly perTask = new Map<string, Counter>();

  record(taskKey: string, tool: string): void {
    let counter = this.perTask.get(taskKey);
    if (!counter) {
      counter = newCounter();
      this.perTask.set(taskKey, counter);
    }
    for (const target of [counter, this.overall]) {
      target.total += 1;
      target.tools[tool] = (target.tools[tool] ?? 0) + 1;
    }
  }

  /** The reference's getSessionUsage, for the calling task. */
  session(taskKey: string): Payload {
    const counter = this.perTask.get(taskKey) ?? newCounter();
    return { status: 'success', session_id: counter.sessionId, session_start: counter.start, total_calls: counter.total, tool_usage: { ...counter.tools } };
  }

  /** The reference's getAllUsageStats, over every task this process served. */
  all(): Payload {
    return { status: 'success', overall_stats: { session_start: this.overall.start, total_calls: this.overall.total, tool_usage: { ...this.overall.tools } } };
  }
}
