// One cheap, deterministic call per known server, used by `m3 servers check --smoke` to prove a
// server does real work (not just that it lists tools). Servers without an entry are skipped.
// Server owners add entries here; a check must need no network and finish in a few seconds.
import type { CallContext } from '../core/tool-result-contract.js';
import { callCheckedTool } from './checked-call.js';
import type { ToolHost } from './types.js';

export interface SmokeTest {
  tool: string;
  args: Record<string, unknown>;
  /** What a correct answer looks like, for the report. */
  expectation: string;
  accept: (text: string) => boolean;
}

export const smokeTests: Readonly<Record<string, SmokeTest>> = {
  math: { tool: 'add', args: { firstNumber: 2, secondNumber: 3 }, expectation: '5', accept: (text) => text.trim() === '5' },
};

export interface SmokeResult {
  state: 'passed' | 'failed' | 'not_defined';
  detail: string;
  durationMs?: number;
}

/** `workspace`: the folder smoke calls may write to (sent as their call context). */
export async function runSmokeTest(host: ToolHost, server: string, workspace: string, table: Readonly<Record<string, SmokeTest>> = smokeTests): Promise<SmokeResult> {
  const test = table[server];
  if (!test) return { state: 'not_defined', detail: 'no smoke test defined' };
  const canonical = `${server}/${test.tool}`;
  const context: CallContext = { taskId: `smoke/${server}`, workspace };
  const outcome = await callCheckedTool(host, canonical, test.args, { context });
  const shown = outcome.text.length > 120 ? `${outcome.text.slice(0, 117)}...` : outcome.text;
  if (!outcome.isError && test.accept(outcome.text)) {
    return { state: 'passed', detail: `${canonical} → ${shown}`, durationMs: outcome.durationMs };
  }
  return { state: 'failed', detail: `${canonical} returned ${JSON.stringify(shown)}, expected ${test.expectation}`, durationMs: outcome.durationMs };
}
