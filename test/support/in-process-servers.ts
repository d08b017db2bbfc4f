// Our MCP servers inside the test process: the server's own `register<Name>Tools` (its tools.ts)
// on a fresh McpServer, linked to an SDK client by the SDK's in-memory transport. Same tool code
// and the same MCP messages as over stdio, without a child process: for tests of what the tools
// answer. Tests of the process itself (start-up, stdio framing, exit, signals) spawn dist/
// through server-child.ts.
//
// The servers read their settings from process.env: base URLs and keys when a call runs, the
// shared HTTP client's retries and network guard when the client is built (on import for some
// servers, on register for others). connectInProcess therefore sets `env`, over the defaults a
// spawned test server gets (loopback network guard, no HTTP retries), before it loads and
// registers the server; keeps it while the connection is open; and restores the earlier values
// on close. process.env is one per test process: two open connections may not set one variable
// to different values (connect throws rather than let one server read the other's settings).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export type RegisterTools = (server: McpServer) => void;

/**
 * Every local server key of mcp_servers.json to its register function, loaded on first use so a
 * test pays only for the server it runs (and the env is set before the module's clients exist).
 */
export const inProcessServers: Readonly<Record<string, () => Promise<RegisterTools>>> = {
  'dinox-mcp': async () => (await import('../../servers/yolo/tools.js')).registerYoloTools,
  math: async () => (await import('../../servers/math/tools.js')).registerMathTools,
  ocr: async () => (await import('../../servers/ocr/tools.js')).registerOcrTools,
  'pyzbar-mcp': async () => (await import('../../servers/barcode/tools.js')).registerBarcodeTools,
  'imagesorcery-mcp': async () => (await import('../../servers/imageops/tools.js')).registerImageOpsTools,
  ppt: async () => (await import('../../servers/ppt/tools.js')).registerPptTools,
  excel: async () => (await import('../../servers/excel/tools.js')).registerExcelTools,
  'nasa-mcp': async () => (await import('../../servers/nasa/tools.js')).registerNasaTools,
  nixos: async () => (await import('../../servers/nixos/tools.js')).registerNixosTools,
  'healthcare-mcp': async () => (await import('../../servers/healthcare/tools.js')).registerHealthcareTools,
  paper_search: async () => (await import('../../servers/paper-search/tools.js')).registerPaperSearchTools,
  'google-maps': async () => (await import('../../servers/google-maps/tools.js')).registerGoogleMapsTools,
  amazon: async () => (await import('../../servers/amazon/tools.js')).registerAmazonTools,
  'Reddit-MCP-Server': async () => (await import('../../servers/reddit/tools.js')).registerRedditTools,
  'google-air': async () => (await import('../../servers/google-air/tools.js')).registerGoogleAirTools,
  nationalparks: async () => (await import('../../servers/nationalparks/tools.js')).registerNationalParksTools,
  tmdb: async () => (await import('../../servers/tmdb/tools.js')).registerTmdbTools,
  food_nutrition_mcp: async () => (await import('../../servers/food-nutrition/tools.js')).registerFoodNutritionTools,
  'linkimage-mcp': async () => (await import('../../servers/linkimage/tools.js')).registerLinkImageTools,
  wiki: async () => (await import('../../servers/wiki/tools.js')).registerWikiTools,
  weather: async () => (await import('../../servers/weather/tools.js')).registerWeatherTools,
  openlibrary_mcp: async () => (await import('../../servers/openlibrary/tools.js')).registerOpenLibraryTools,
  okx: async () => (await import('../../servers/okx/tools.js')).registerOkxTools,
  'metmuseum-mcp': async () => (await import('../../servers/metmuseum/tools.js')).registerMetMuseumTools,
  'car-price': async () => (await import('../../servers/car-price/tools.js')).registerCarPriceTools,
  'yahoo-finance': async () => (await import('../../servers/yahoo-finance/tools.js')).registerYahooFinanceTools,
  'hugeicons-mcp': async () => (await import('../../servers/hugeicons/tools.js')).registerHugeiconsTools,
  email: async () => (await import('../../servers/email/tools.js')).registerEmailTools,
  calendar: async () => (await import('../../servers/calendar/tools.js')).registerCalendarTools,
};

/** What a spawned test server gets besides its own env (server-child.ts). */
const childDefaults: Readonly<Record<string, string>> = { M3_NETWORK_GUARD: 'loopback', M3_HTTP_RETRIES: '0' };

export interface InProcessServer {
  client: Client;
  /** The server side, for tests that look at it directly. */
  server: McpServer;
  close: () => Promise<void>;
}

export interface InProcessOptions {
  /** Set for as long as the connection is open; undefined unsets a variable (e.g. a key a test proves is needed). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The MCP server name; default the key, or "in-process" for a bare register function. */
  name?: string;
}

interface HeldVariable {
  value: string | undefined;
  holders: number;
  previous: string | undefined;
}

const held = new Map<string, HeldVariable>();

function setVariable(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** Sets the variables and returns the function that puts the earlier values back once no open connection needs them. */
function holdEnv(env: Readonly<Record<string, string | undefined>>): () => void {
  const entries = Object.entries({ ...childDefaults, ...env });
  for (const [name, value] of entries) {
    const current = held.get(name);
    if (current && current.value !== value) {
      throw new Error(
        `in-process servers share process.env: ${name} is ${JSON.stringify(current.value)} for an open connection, this one wants ${JSON.stringify(value)}`,
      );
    }
  }
  for (const [name, value] of entries) {
    const current = held.get(name);
    if (current) {
      current.holders += 1;
      continue;
    }
    held.set(name, { value, holders: 1, previous: process.env[name] });
    setVariable(name, value);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const [name] of entries) {
      const current = held.get(name);
      if (!current) continue;
      current.holders -= 1;
      if (current.holders > 0) continue;
      held.delete(name);
      setVariable(name, current.previous);
    }
  };
}

async function loadRegister(server: string | RegisterTools): Promise<RegisterTools> {
  if (typeof server !== 'string') return server;
  const load = inProcessServers[server];
  if (!load) throw new Error(`no in-process server "${server}" (known: ${Object.keys(inProcessServers).join(', ')})`);
  return load();
}

/** One of our servers (a mcp_servers.json key, or a register function) connected to a client in this process. */
export async function connectInProcess(server: string | RegisterTools, options: InProcessOptions = {}): Promise<InProcessServer> {
  const release = holdEnv(options.env ?? {});
  try {
    const register = await loadRegister(server);
    const mcp = new McpServer({ name: options.name ?? (typeof server === 'string' ? server : 'in-process'), version: '0.0.0-test' });
    register(mcp);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    const client = new Client({ name: 'in-process-test', version: '1.0.0' });
    await client.connect(clientSide);
    const close = async () => {
      try {
        await client.close();
        await mcp.close();
      } finally {
        release();
      }
    };
    return { client, server: mcp, close };
  } catch (error) {
    release();
    throw error;
  }
}
