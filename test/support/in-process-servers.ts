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
// on close. process.env is one per test process: while two connections are open, it is the env
// of the one a message reached last (see holdEnv). Each connection by key loads the server's modules afresh
// (vi.resetModules), so module-level state (HTTP clients built from the env, caches, loaded
// models) starts empty as in a new process, whatever the test file imported before.
// @restores-process-state: a connection's env leaves process.env when the connection closes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { vi } from 'vitest';
import { repoRoot } from './shared-assets.js';

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

const configuredServers = (
  JSON.parse(readFileSync(path.join(repoRoot, 'mcp_servers.json'), 'utf8')) as {
    servers: Record<string, { args?: string[]; env?: Record<string, string> }>;
  }
).servers;

/** The mcp_servers.json key that runs `entry` ("servers/wiki/index.ts"). */
export function serverKeyOf(entry: string): string {
  const key = Object.entries(configuredServers).find(([, spec]) => spec.args?.includes(entry))?.[0];
  if (!key) throw new Error(`no server of mcp_servers.json runs ${entry}`);
  return key;
}

export interface InProcessServer {
  client: Client;
  /** The server side, for tests that look at it directly. */
  server: McpServer;
  /** The register function it ran (by key: from modules loaded for this connection). */
  register: RegisterTools;
  /** Everything written to process.stderr while the connection was open (not shown, as a child's piped stderr). */
  stderr: () => string;
  /** Closes client and server and restores the env; closing the client alone does the same. */
  close: () => Promise<void>;
}

export interface InProcessOptions {
  /** Set for as long as the connection is open; undefined unsets a variable (e.g. a key a test proves is needed). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Unset every variable the server's mcp_servers.json entry names that `env` does not give, as a
   * child spawned with only `env` would lack them (the keys of the developer's shell included).
   */
  exactEnv?: boolean;
  /** The MCP server name; default the key, or "in-process" for a bare register function. */
  name?: string;
}

// The env of the open connections, the active one last. process.env is the active connection's:
// each variable any open connection sets has the active one's value, or the value it had before
// any of them when the active one does not name it. A connection becomes active when it opens and
// whenever a message reaches its server, so a test's calls to two servers in turn (a main one
// and a second pointed at a failing fake, or one with another key) each see their own env. Calls
// to two connections running at the same time would see one env: tests await them in turn.
const openEnvs: Array<Readonly<Record<string, string | undefined>>> = [];
const before = new Map<string, string | undefined>();

const heldNames = () => new Set(openEnvs.flatMap((env) => Object.keys(env)));

function applyEnv(names: Iterable<string>): void {
  const active = openEnvs.at(-1);
  for (const name of names) {
    const value = active && name in active ? active[name] : before.get(name);
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
    if (!openEnvs.some((env) => name in env)) before.delete(name);
  }
}

interface HeldEnv {
  /** Makes this connection's env the process env (a message reached its server). */
  activate: () => void;
  /** Takes this connection's values back out. */
  release: () => void;
}

function holdEnv(env: Readonly<Record<string, string | undefined>>): HeldEnv {
  const held = { ...env };
  for (const name of Object.keys(held)) if (!before.has(name)) before.set(name, process.env[name]);
  openEnvs.push(held);
  applyEnv(heldNames());
  let released = false;
  return {
    activate: () => {
      if (released || openEnvs.at(-1) === held) return;
      openEnvs.splice(openEnvs.indexOf(held), 1);
      openEnvs.push(held);
      applyEnv(heldNames());
    },
    release: () => {
      if (released) return;
      released = true;
      const names = heldNames();
      openEnvs.splice(openEnvs.indexOf(held), 1);
      applyEnv(names);
    },
  };
}

// While a connection is open, what the process writes to stderr is kept for its stderr() and
// not shown: a child's stderr was piped the same way, and tests scan it for secrets.
const stderrSinks = new Set<string[]>();
const originalWrite = process.stderr.write.bind(process.stderr);

function captureStderr(): { text: () => string; stop: () => void } {
  const chunks: string[] = [];
  if (stderrSinks.size === 0) {
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      for (const sink of stderrSinks) sink.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const done = rest.find((value) => typeof value === 'function') as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof process.stderr.write;
  }
  stderrSinks.add(chunks);
  return {
    text: () => chunks.join(''),
    stop: () => {
      stderrSinks.delete(chunks);
      if (stderrSinks.size === 0) process.stderr.write = originalWrite;
    },
  };
}

async function loadRegister(server: string | RegisterTools): Promise<RegisterTools> {
  if (typeof server !== 'string') return server;
  const load = inProcessServers[server];
  if (!load) throw new Error(`no in-process server "${server}" (known: ${Object.keys(inProcessServers).join(', ')})`);
  vi.resetModules();
  return load();
}

function envFor(server: string | RegisterTools, options: InProcessOptions): Record<string, string | undefined> {
  const configured = options.exactEnv && typeof server === 'string' ? Object.keys(configuredServers[server]?.env ?? {}) : [];
  return { ...childDefaults, ...Object.fromEntries(configured.map((name) => [name, undefined])), ...options.env };
}

/** One of our servers (a mcp_servers.json key, or a register function) connected to a client in this process. */
export async function connectInProcess(server: string | RegisterTools, options: InProcessOptions = {}): Promise<InProcessServer> {
  const env = holdEnv(envFor(server, options));
  const stderr = captureStderr();
  const finish = () => {
    stderr.stop();
    env.release();
  };
  try {
    const register = await loadRegister(server);
    const mcp = new McpServer({ name: options.name ?? (typeof server === 'string' ? server : 'in-process'), version: '0.0.0-test' });
    register(mcp);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // Closing the client closes the linked server side too: the env goes back either way.
    mcp.server.onclose = finish;
    await mcp.connect(serverSide);
    const deliver = serverSide.onmessage;
    serverSide.onmessage = (message, extra) => {
      env.activate();
      deliver?.(message, extra);
    };
    const client = new Client({ name: 'in-process-test', version: '1.0.0' });
    await client.connect(clientSide);
    const close = async () => {
      try {
        await client.close();
        await mcp.close();
      } finally {
        finish();
      }
    };
    return { client, server: mcp, register, stderr: stderr.text, close };
  } catch (error) {
    finish();
    throw error;
  }
}
