// One cheap call per known server, used by `m3 servers check --smoke` to prove a server does real
// work (not just that it lists tools). Servers without an entry are skipped. Web-API servers
// declare their smoke next to their code (servers/<folder>/smoke.ts) with a loopback fake of their
// upstream, so `m3 servers check --smoke --offline` runs the same call without the network: the
// fake is started here and the server's base-URL variables are pointed at it before it starts.
import type { ServerSpec } from '../config/index.js';
import { smoke as carPriceSmoke } from '../../servers/car-price/smoke.js';
import { smoke as hugeiconsSmoke } from '../../servers/hugeicons/smoke.js';
import { smoke as metMuseumSmoke } from '../../servers/metmuseum/smoke.js';
import { smoke as okxSmoke } from '../../servers/okx/smoke.js';
import { smoke as openLibrarySmoke } from '../../servers/openlibrary/smoke.js';
import { startHttpFake, type HttpFake } from '../../servers/shared/http-fake.js';
import type { ServerSmoke } from '../../servers/shared/smoke.js';
import { smoke as weatherSmoke } from '../../servers/weather/smoke.js';
import { smoke as wikiSmoke } from '../../servers/wiki/smoke.js';
import { smoke as yahooFinanceSmoke } from '../../servers/yahoo-finance/smoke.js';
import type { ToolHost } from './types.js';

export type SmokeTest = ServerSmoke;

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
};

export interface SmokeResult {
  state: 'passed' | 'failed' | 'not_defined';
  detail: string;
  durationMs?: number;
}

export async function runSmokeTest(host: ToolHost, server: string, table: Readonly<Record<string, SmokeTest>> = smokeTests): Promise<SmokeResult> {
  const test = table[server];
  if (!test) return { state: 'not_defined', detail: 'no smoke test defined' };
  const canonical = `${server}/${test.tool}`;
  const outcome = await host.callTool(canonical, test.args);
  // One line in the report table, however the answer is laid out.
  const flat = outcome.text.replace(/\s+/g, ' ').trim();
  const shown = flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
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
 * each declared variable set to `<fake url><prefix>` (over whatever the configuration set).
 * Specs without an offline fake are returned unchanged (local servers need no network).
 */
export async function startOfflineSmokeFakes(specs: readonly ServerSpec[], table: Readonly<Record<string, SmokeTest>> = smokeTests): Promise<OfflineSmokeFakes> {
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
      result.push({ ...spec, env: { ...spec.env, ...pointed } });
    }
    return { specs: result, faked, close };
  } catch (error) {
    await close();
    throw error;
  }
}
