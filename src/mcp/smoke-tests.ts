// One cheap, deterministic call per known server, used by `m3 servers check --smoke` to prove a
// server does real work (not just that it lists tools). Servers without an entry are skipped.
// Server owners add entries here; a check must need no network and finish in a few seconds.
import type { ServerSmoke } from '../../servers/shared/smoke.js';
import { smoke as nasaSmoke } from '../../servers/nasa/smoke.js';
import { smoke as nixosSmoke } from '../../servers/nixos/smoke.js';
import { smoke as healthcareSmoke } from '../../servers/healthcare/smoke.js';
import { smoke as paperSearchSmoke } from '../../servers/paper-search/smoke.js';
import { smoke as amazonSmoke } from '../../servers/amazon/smoke.js';
import { smoke as foodNutritionSmoke } from '../../servers/food-nutrition/smoke.js';
import { smoke as googleAirSmoke } from '../../servers/google-air/smoke.js';
import { smoke as googleMapsSmoke } from '../../servers/google-maps/smoke.js';
import { smoke as linkImageSmoke } from '../../servers/linkimage/smoke.js';
import { smoke as nationalParksSmoke } from '../../servers/nationalparks/smoke.js';
import { smoke as redditSmoke } from '../../servers/reddit/smoke.js';
import { smoke as tmdbSmoke } from '../../servers/tmdb/smoke.js';
import type { CallContext } from '../core/tool-result-contract.js';
import { callCheckedTool } from './checked-call.js';
import type { ToolHost } from './types.js';

export interface SmokeTest {
  tool: string;
  args: Record<string, unknown>;
  /** What a correct answer looks like, for the report. */
  expectation: string;
  accept: (text: string) => boolean;
  /** Variables (API keys) the call needs; while one is unset the smoke is not run. */
  requiresEnv?: readonly string[];
}

export const smokeTests: Readonly<Record<string, SmokeTest | ServerSmoke>> = {
  'nasa-mcp': nasaSmoke,
  nixos: nixosSmoke,
  amazon: amazonSmoke,
  food_nutrition_mcp: foodNutritionSmoke,
  'google-air': googleAirSmoke,
  'google-maps': googleMapsSmoke,
  'Reddit-MCP-Server': redditSmoke,
  nationalparks: nationalParksSmoke,
  tmdb: tmdbSmoke,
  'linkimage-mcp': linkImageSmoke,
  math: { tool: 'add', args: { firstNumber: 2, secondNumber: 3 }, expectation: '5', accept: (text) => text.trim() === '5' },
  'healthcare-mcp': healthcareSmoke,
  paper_search: paperSearchSmoke,
};

export interface SmokeResult {
  state: 'passed' | 'failed' | 'not_defined';
  detail: string;
  durationMs?: number;
}

/** `workspace`: the folder smoke calls may write to (sent as their call context). */
export async function runSmokeTest(
  host: ToolHost,
  server: string,
  workspace: string,
  table: Readonly<Record<string, SmokeTest | ServerSmoke>> = smokeTests,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SmokeResult> {
  const test = table[server];
  if (!test) return { state: 'not_defined', detail: 'no smoke test defined' };
  // A web-API server's smoke call needs its upstream; with the network guard on (the test suite)
  // it can only run against its offline fake, which the server's own unit test starts.
  const unset = (test.requiresEnv ?? []).filter((name) => !env[name]?.trim());
  if (unset.length > 0) return { state: 'not_defined', detail: `no smoke test without ${unset.join(', ')}` };
  if ('offline' in test && test.offline && env.M3_NETWORK_GUARD === 'loopback') {
    return { state: 'not_defined', detail: 'needs the network (M3_NETWORK_GUARD=loopback); its offline fake runs in the server test' };
  }
  const canonical = `${server}/${test.tool}`;
  const context: CallContext = { taskId: `smoke/${server}`, workspace };
  const outcome = await callCheckedTool(host, canonical, test.args, { context });
  const shown = outcome.text.length > 120 ? `${outcome.text.slice(0, 117)}...` : outcome.text;
  if (!outcome.isError && test.accept(outcome.text)) {
    return { state: 'passed', detail: `${canonical} → ${shown}`, durationMs: outcome.durationMs };
  }
  return { state: 'failed', detail: `${canonical} returned ${JSON.stringify(shown)}, expected ${test.expectation}`, durationMs: outcome.durationMs };
}
