// One cheap call per known server, used by `m3 servers check --smoke` to prove a server does real
// work (not just that it lists tools). Servers without an entry are skipped. Web-API servers
// declare their smoke next to their code (servers/<folder>/smoke.ts) with a loopback fake of their
// upstream, so `m3 servers check --smoke --offline` runs the same call without the network: the
// fake is started here and the server's base-URL variables are pointed at it before it starts.
import { smoke as amazonSmoke } from '../../servers/amazon/smoke.js';
import { smoke as carPriceSmoke } from '../../servers/car-price/smoke.js';
import { smoke as foodNutritionSmoke } from '../../servers/food-nutrition/smoke.js';
import { smoke as googleAirSmoke } from '../../servers/google-air/smoke.js';
import { smoke as googleMapsSmoke } from '../../servers/google-maps/smoke.js';
import { smoke as healthcareSmoke } from '../../servers/healthcare/smoke.js';
import { smoke as hugeiconsSmoke } from '../../servers/hugeicons/smoke.js';
import { smoke as linkImageSmoke } from '../../servers/linkimage/smoke.js';
import { smoke as metMuseumSmoke } from '../../servers/metmuseum/smoke.js';
import { smoke as nasaSmoke } from '../../servers/nasa/smoke.js';
import { smoke as nationalParksSmoke } from '../../servers/nationalparks/smoke.js';
import { smoke as nixosSmoke } from '../../servers/nixos/smoke.js';
import { smoke as okxSmoke } from '../../servers/okx/smoke.js';
import { smoke as openLibrarySmoke } from '../../servers/openlibrary/smoke.js';
import { smoke as paperSearchSmoke } from '../../servers/paper-search/smoke.js';
import { smoke as redditSmoke } from '../../servers/reddit/smoke.js';
import { startHttpFake, type HttpFake } from '../../servers/shared/http-fake.js';
import type { ServerSmoke } from '../../servers/shared/smoke.js';
import { smoke as tmdbSmoke } from '../../servers/tmdb/smoke.js';
import { smoke as weatherSmoke } from '../../servers/weather/smoke.js';
import { smoke as wikiSmoke } from '../../servers/wiki/smoke.js';
import { smoke as yahooFinanceSmoke } from '../../servers/yahoo-finance/smoke.js';
import type { ServerSpec } from '../config/index.js';
import type { CallContext } from '../core/tool-result-contract.js';
import { callCheckedTool } from './checked-call.js';
import type { ToolHost } from './types.js';
import { clip } from '../core/number-format.js';

export type SmokeTest = ServerSmoke;

/** @internal Exported for its tests. */
export const smokeTests: Readonly<Record<string, SmokeTest>> = {
  math: { tool: 'add', args: { firstNumber: 2, secondNumber: 3 }, expectation: '5', accept: (text) => text.trim() === '5' },
  wiki: wikiSmoke,
  weather: weatherSmoke,
  openlibrary_mcp: openLibrarySmoke,
  okx: okxSmoke,
  'metmuseum-mcp': metMuseumSmoke,
  'car-price': carPriceSmoke,
  'yahoo-finance': yahooFinanceSmoke,
  'hugeicons-mcp': hugeiconsSmoke,
  'nasa-mcp': nasaSmoke,
  nixos: nixosSmoke,
  'healthcare-mcp': healthcareSmoke,
  paper_search: paperSearchSmoke,
  'google-maps': googleMapsSmoke,
  'google-air': googleAirSmoke,
  amazon: amazonSmoke,
  'Reddit-MCP-Server': redditSmoke,
  tmdb: tmdbSmoke,
  nationalparks: nationalParksSmoke,
  food_nutrition_mcp: foodNutritionSmoke,
  'linkimage-mcp': linkImageSmoke,
};

export interface SmokeResult {
  state: 'passed' | 'failed' | 'not_defined';
  detail: string;
  durationMs?: number;
}

export interface SmokeOptions {
  table?: Readonly<Record<string, SmokeTest>>;
  env?: NodeJS.ProcessEnv;
  /** True when this server answers from its offline fake (startOfflineSmokeFakes). */
  offline?: boolean;
}

/** `workspace`: the folder smoke calls may write to (sent as their call context). */
export async function runSmokeTest(host: ToolHost, server: string, workspace: string, options: SmokeOptions = {}): Promise<SmokeResult> {
  const env = options.env ?? process.env;
  const test = (options.table ?? smokeTests)[server];
  if (!test) return { state: 'not_defined', detail: 'no smoke test defined' };
  if (!options.offline) {
    // Online, a keyed server's smoke needs its key. A web server's smoke needs the network; where
    // the loopback guard is on it fails naming the guard, which tells the user to pass --offline.
    const unset = (test.requiresEnv ?? []).filter((name) => !env[name]?.trim());
    if (unset.length > 0) return { state: 'not_defined', detail: `no smoke test without ${unset.join(', ')}` };
  }
  const canonical = `${server}/${test.tool}`;
  const context: CallContext = { taskId: `smoke/${server}`, workspace };
  const outcome = await callCheckedTool(host, canonical, test.args, { context });
  // One line in the report table, however the answer is laid out.
  const shown = clip(outcome.text, 120, { flatten: true, markerInLimit: true });
  if (!outcome.isError && test.accept(outcome.text)) {
    return { state: 'passed', detail: `${canonical} → ${shown}`, durationMs: outcome.durationMs };
  }
  return { state: 'failed', detail: `${canonical} returned ${JSON.stringify(shown)}, expected ${test.expectation}`, durationMs: outcome.durationMs };
}

export interface OfflineSmokeFakes {
  /** The specs to start: servers with an offline fake get its URL in their base-URL variables. */
  specs: ServerSpec[];
  /** Names of the servers that will answer from a fake. */
  faked: string[];
  close(): Promise<void>;
}

/**
 * Starts the loopback fake of every spec whose smoke declares one and returns the specs with
 * each declared variable set to `<fake url><prefix>` (over whatever the configuration set), plus
 * the smoke's placeholder credentials for keyed servers (the fake accepts any key).
 * Specs without an offline fake are returned unchanged (local servers need no network).
 */
export async function startOfflineSmokeFakes(
  specs: readonly ServerSpec[],
  table: Readonly<Record<string, SmokeTest>> = smokeTests,
): Promise<OfflineSmokeFakes> {
  const fakes: HttpFake[] = [];
  const faked: string[] = [];
  const close = async () => {
    await Promise.all(fakes.map((fake) => fake.close()));
  };
  try {
    const result: ServerSpec[] = [];
    for (const spec of specs) {
      const offline = table[spec.name]?.offline;
      if (!offline || spec.transport !== 'stdio') {
        result.push(spec);
        continue;
      }
      const fake = await startHttpFake(offline.routes);
      fakes.push(fake);
      faked.push(spec.name);
      const pointed = Object.fromEntries(Object.entries(offline.env).map(([name, prefix]) => [name, `${fake.url}${prefix}`]));
      result.push({ ...spec, env: { ...spec.env, ...(offline.credentials ?? {}), ...pointed } });
    }
    return { specs: result, faked, close };
  } catch (error) {
    await close();
    throw error;
  }
}
