// The demo started in-process the way `m3 demo` starts it (configuration loaded by
// loadProjectConfig, so every secret it passes to servers is registered), with the leaky
// fixture server (test/support/fixture-servers/leaky-server.ts) and the OpenAI driver on the mock LLM.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { loadProjectConfig } from '../../src/config/index.js';
import { createModelChoice, startDemoServer, type DemoServer } from '../../src/demo/index.js';
import { createLogger } from '../../src/log/logger.js';
import { McpHost } from '../../src/mcp/index.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { nodeEntryArgs } from '../support/built-entry.js';
import { repoRoot } from '../support/shared-assets.js';

export const dbPassword = 'hunter2-sw0rdfish';

export interface LeakyDemo {
  url: string;
  mock: MockLlm;
  host: McpHost;
  logDir: string;
  close(): Promise<void>;
}

async function startLeakyDemo(): Promise<LeakyDemo> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-leaky-demo-'));
  const leaky = { command: 'node', args: nodeEntryArgs('test/support/fixture-servers/leaky-server.ts') };
  const serversFile = path.join(dir, 'servers.json');
  writeFileSync(
    serversFile,
    JSON.stringify({
      servers: { leaky: { ...leaky, env: { DB_PASS: dbPassword } }, 'leaky-start': { ...leaky, env: { DB_PASS: dbPassword, LEAKY_FAIL_START: '1' } } },
    }),
  );
  const mock = await startMockLlm();
  const config = loadProjectConfig({
    serversFile,
    env: { PATH: process.env.PATH ?? '', OPENAI_API_KEY: 'sk-test-leaky-demo-0123456789', OPENAI_BASE_URL: mock.openAiBaseUrl },
  });
  const logDir = path.join(dir, 'logs');
  const host = await McpHost.start(config.servers, { callTimeoutMs: 10_000, startupTimeoutMs: 20_000, logDir, logger: createLogger('silent') });
  const models = await createModelChoice(['openai:mock-model'], config.env, 30_000);
  const demo: DemoServer = await startDemoServer({
    toolHost: host,
    models,
    switches: config.switches,
    port: 0,
    root: repoRoot,
    uploadsDir: path.join(dir, 'uploads'),
    logDir: path.join(dir, 'demo-log'),
    logger: createLogger('silent'),
    loopLimits: { maxStep: 2, maxConcurrent: 2, topTools: 0, maxNewTokens: 256 },
  });
  return {
    url: demo.url,
    mock,
    host,
    logDir,
    close: async () => {
      await demo.close();
      await host.close();
      await mock.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One leaky demo for the test file; the getter is valid inside tests. */
export function useLeakyDemo(): () => LeakyDemo {
  let demo: LeakyDemo | undefined;
  beforeAll(async () => {
    demo = await startLeakyDemo();
  }, 120_000);
  afterAll(async () => {
    await demo?.close();
  });
  return () => {
    if (!demo) throw new Error('the leaky demo is only available inside a test');
    return demo;
  };
}
