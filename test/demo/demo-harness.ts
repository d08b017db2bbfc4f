// Starts the demo in-process for tests: the real MCP servers of mcp_servers.json (a chosen
// subset; as child processes, or with `inProcess` their tools in the test's own process through
// test/support/in-process-host.ts, where the server process is not what the test checks), the
// OpenAI driver pointed at the mock LLM, a throw-away run store and log folder.
// Uploads go to media/uploads/test-<random>/ (inside media/, where the servers may read) and
// are removed again by close().
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadServersConfig } from '../../src/config/servers.js';
import { parseSwitches } from '../../src/config/switches.js';
import { createModelChoice, playgroundRpcLogEntries, startDemoServer, type DemoLimits, type DemoServer } from '../../src/demo/index.js';
import { createLogger } from '../../src/log/logger.js';
import { registerPassedValues, registerSecret } from '../../src/log/redact.js';
import { McpHost } from '../../src/mcp/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { inProcessHost } from '../support/in-process-host.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { repoRoot, sharedAssetsDir } from '../support/shared-assets.js';
import { visitorCookie } from './raw-http.js';

/** Looks like a real key, so a leak would be caught by the pattern redaction too if it slipped. */
export const testApiKey = 'sk-demo-test-key-7f3a9c2e5b1d4f60';

export interface DemoHarness {
  demo: DemoServer;
  url: string;
  mock: MockLlm;
  host: McpHost;
  store: Store;
  storeFile: string;
  logDir: string;
  uploadsDir: string;
  functionName(canonical: string): string;
  close(): Promise<void>;
}

export interface HarnessOptions {
  servers: string[];
  models?: string[];
  limits?: Partial<DemoLimits>;
  maxStep?: number;
  /** Extra variables for a server, by name, registered as secrets the way configuration loading does. */
  serverEnv?: Record<string, Record<string, string>>;
  /**
   * Serve the servers' tools in this process (the MCP SDK's in-memory transport; every part of
   * the host after the transport, the rpc log included, as with children). The servers then read
   * the test process's env, not their spec's (serverEnv is still registered as secrets), and the
   * YOLO model is the pulled asset the global setup put in media/assets/.
   */
  inProcess?: boolean;
}

export function yoloModelPath(): string | undefined {
  const assets = sharedAssetsDir();
  return assets ? path.join(assets, 'models', 'yolox_nano.onnx') : undefined;
}

export async function startDemoHarness(options: HarnessOptions): Promise<DemoHarness> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-demo-'));
  const uploadsDir = path.join(repoRoot, 'media', 'uploads', `test-${randomBytes(4).toString('hex')}`);
  const mock = await startMockLlm();
  const env = { OPENAI_API_KEY: testApiKey, OPENAI_BASE_URL: mock.openAiBaseUrl };
  registerSecret(testApiKey);
  const specs = loadServersConfig(path.join(repoRoot, 'mcp_servers.json'), { env: {}, root: repoRoot })
    .filter((spec) => options.servers.includes(spec.name))
    .map((spec) => ({ ...spec, env: { ...spec.env, ...options.serverEnv?.[spec.name] } }));
  for (const spec of specs) registerPassedValues(spec.env);
  const yolo = yoloModelPath();
  const host = await McpHost.start(specs, {
    requireAll: true,
    sharedEnv: yolo ? { M3_YOLO_MODEL: yolo } : {},
    logger: createLogger('error'),
    rpcLogEntries: playgroundRpcLogEntries,
    ...(options.inProcess ? { connectServer: inProcessHost({ local: true }).connectServer } : {}),
  });
  const storeFile = path.join(workDir, 'store.sqlite');
  const store = openStore(storeFile);
  const logDir = path.join(workDir, 'log');
  const switches = parseSwitches({ M3_LLM_MAX_RETRIES: '0', M3_LLM_TIMEOUT: '60' });
  const models = await createModelChoice(options.models ?? ['openai:mock-model'], env, 60_000);
  const demo = await startDemoServer({
    toolHost: host,
    models,
    switches,
    port: 0,
    root: repoRoot,
    uploadsDir,
    logDir,
    store,
    logger: createLogger('error'),
    loopLimits: { maxStep: options.maxStep ?? 3, maxConcurrent: 4, topTools: 0, maxNewTokens: 1024 },
    ...(options.limits ? { limits: options.limits } : {}),
  });
  return {
    demo,
    url: demo.url,
    mock,
    host,
    store,
    storeFile,
    logDir,
    uploadsDir,
    functionName: (canonical) => {
      const tool = host.findByCanonical(canonical);
      if (!tool) throw new Error(`no tool ${canonical} in the test host`);
      return tool.functionName;
    },
    close: async () => {
      await demo.close();
      store.close();
      await host.close();
      await mock.close();
      rmSync(uploadsDir, { recursive: true, force: true });
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/** Same-origin headers as the page sends them, with the tests' visitor cookie (test/demo/raw-http.ts). */
export function pageHeaders(url: string, json = true): Record<string, string> {
  return { origin: url.replace(/\/$/, ''), 'sec-fetch-site': 'same-origin', cookie: visitorCookie, ...(json ? { 'content-type': 'application/json' } : {}) };
}

/** The headers of a page's GET: the visitor cookie its browser holds. */
export function visitorHeaders(): Record<string, string> {
  return { cookie: visitorCookie };
}

export interface EventLine {
  id: number;
  event: { type: string; episodeId: string; [key: string]: unknown };
}

/** Reads a session's event stream until `until` matches an event (or the timeout passes). */
export async function collectEvents(url: string, sessionId: string, until: (event: EventLine['event']) => boolean, timeoutMs = 60_000): Promise<EventLine[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const events: EventLine[] = [];
  try {
    const response = await fetch(`${url}api/sessions/${sessionId}/events?after=0`, { signal: controller.signal, headers: visitorHeaders() });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const id = /^id: (\d+)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (!id || !data) continue;
        const line = { id: Number(id), event: JSON.parse(data) as EventLine['event'] };
        events.push(line);
        if (until(line.event)) return events;
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
    throw new Error(`no matching event within ${timeoutMs} ms; got: ${events.map((line) => line.event.type).join(', ')}`);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return events;
}
