// Every configured secret, grepped over everything a run and a demo session wrote (issue 30,
// item 12 and the closing test). Secrets: the provider key (also substituted into a benchmark
// file's agent instruction and echoed by the model), a value substituted into a server's `args`
// (`--sig ${SERVICE_SIG}`, a name no credential pattern knows), and a value passed in a server's
// env. The fixture server repeats them on stderr and from a tool, a resource and a prompt.
// `m3 bench` runs in the test's process with a clean environment (run-child.ts) against the
// wire-level mock, its servers real children; the demo runs in-process the way `m3 demo` starts it
// (configuration through loadProjectConfig).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProjectConfig } from '../../src/config/index.js';
import { createModelChoice, playgroundRpcLogEntries, startDemoServer } from '../../src/demo/index.js';
import { createLogger } from '../../src/log/logger.js';
import { McpHost } from '../../src/mcp/index.js';
import { openStore } from '../../src/store/index.js';
import { collectEvents } from '../demo/demo-harness.js';
import { rawRequest } from '../demo/raw-http.js';
import { nodeEntryArgs } from '../support/built-entry.js';
import { repoRoot } from '../support/shared-assets.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { filesUnder, runM3 } from './run-child.js';

const apiKey = 'k3y-sweep-Ow9Tq2Lm5Rb8';
const signature = 'sig-sweep-Vt6Kp1Yd3';
const password = 'pw-sweep-Hq4Zn7Xc';
const secrets = [apiKey, signature, password];

let mock: MockLlm;
const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-secret-sweep-'));
const serversFile = path.join(dir, 'servers.json');
const env = { OPENAI_API_KEY: apiKey, SERVICE_SIG: signature, SWEEP_DB: password };

beforeAll(async () => {
  mock = await startMockLlm();
  writeFileSync(
    serversFile,
    JSON.stringify({
      servers: {
        echo: {
          command: 'node',
          args: [...nodeEntryArgs('test/support/fixture-servers/secret-echo-server.ts'), '--sig', '${SERVICE_SIG}'],
          env: { DB_PASS: '${SWEEP_DB}' },
        },
      },
    }),
  );
});
afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The model calls both tools (one with every secret in its argument), then repeats every secret in its reply. */
function scriptEchoingModel(): void {
  mock.enqueue(
    {
      toolCalls: [
        { name: 'echo__whoami', arguments: {} },
        { name: 'echo__say', arguments: { text: `key ${apiKey}, sig ${signature}, pass ${password}` } },
      ],
    },
    { text: `Signed: ${apiKey} ${signature} ${password}` },
  );
}

function leaksIn(files: string[]): string[] {
  return files.flatMap((file) => {
    const bytes = readFileSync(file).toString('latin1');
    return secrets.filter((secret) => bytes.includes(secret)).map((secret) => `${path.relative(dir, file)}: ${secret}`);
  });
}

describe('no configured secret in anything a run or a demo session wrote', () => {
  it('m3 bench: prediction file, manifest (the instruction), store, trace, server logs, stdout and stderr', async () => {
    const runDir = path.join(dir, 'run');
    const results = path.join(runDir, 'results');
    const tasks = path.join(dir, 'tasks.json');
    writeFileSync(tasks, JSON.stringify([{ id: 's1', type: 'echo', question: 'Who are you?', final_reply: 'ok', steps: [] }]));
    const bench = path.join(dir, 'bench.yaml');
    writeFileSync(
      bench,
      [
        'kind: llm\nspec:\n  name: llm-1\n  type: openai\n  config:\n    model_name: mock-model',
        'kind: agent\nspec:\n  name: a\n  type: function-call\n  config:\n    llm: llm-1\n    instruction: Sign every request with ${OPENAI_API_KEY}.\n    servers:\n      - name: echo',
        'kind: benchmark\nspec:\n  description: sweep\n  agent: a\n  tasks:\n    - tasks.json',
      ].join('\n---\n'),
    );
    scriptEchoingModel();
    const run = await runM3(['bench', bench, '--run-dir', results, '--store', path.join(results, 'm3bench.sqlite'), '--config', serversFile, '--trace-file'], {
      ...env,
      OPENAI_BASE_URL: mock.openAiBaseUrl,
    });
    expect(run.code, run.stderr).toBe(0);
    const written = filesUnder(runDir);
    const predictions = written.find((file) => file.endsWith('_test_mcp_fuzzy.json'));
    const manifest = written.find((file) => file.endsWith('.manifest.json'));
    expect(predictions && manifest, written.join('\n')).toBeTruthy();
    // The secrets were there to leak: the model's reply and the instruction are kept, masked.
    expect(readFileSync(predictions!, 'utf8')).toContain('Signed: [REDACTED] [REDACTED] [REDACTED]');
    expect(JSON.parse(readFileSync(manifest!, 'utf8')).options.instruction).toBe('Sign every request with [REDACTED].');
    expect(written.some((file) => file.includes(`${path.sep}logs${path.sep}`))).toBe(true);
    expect(leaksIn(written)).toEqual([]);
    for (const text of [run.stdout, run.stderr]) for (const secret of secrets) expect(text).not.toContain(secret);
  }, 240_000);

  it('m3 demo: every answer, event, the RPC log, session log, store and server log of a session', async () => {
    const demoDir = path.join(dir, 'demo');
    const config = loadProjectConfig({ serversFile, env: { PATH: process.env.PATH ?? '', ...env, OPENAI_BASE_URL: mock.openAiBaseUrl } });
    const host = await McpHost.start(config.servers, {
      callTimeoutMs: 20_000,
      startupTimeoutMs: 60_000,
      logDir: path.join(demoDir, 'server-logs'),
      logger: createLogger('silent'),
      rpcLogEntries: playgroundRpcLogEntries,
    });
    const store = openStore(path.join(demoDir, 'store.sqlite'));
    const demo = await startDemoServer({
      toolHost: host,
      models: await createModelChoice(['openai:mock-model'], config.env, 30_000),
      switches: config.switches,
      port: 0,
      root: repoRoot,
      uploadsDir: path.join(demoDir, 'uploads'),
      logDir: path.join(demoDir, 'session-logs'),
      store,
      logger: createLogger('silent'),
      loopLimits: { maxStep: 3, maxConcurrent: 2, topTools: 0, maxNewTokens: 256 },
    });
    const answers: string[] = [];
    const origin = demo.url.replace(/\/$/, '');
    const api = async (method: string, route: string, body?: unknown) => {
      const answer = await rawRequest(demo.url, {
        method,
        path: route,
        headers: method === 'GET' ? {} : { origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      answers.push(answer.text);
      return answer;
    };
    try {
      const session = (await api('POST', '/api/sessions', {})).json<{ id: string }>().id;
      const whoami = await api('POST', '/api/tools/call', { sessionId: session, tool: 'echo/whoami', arguments: {} });
      expect(whoami.json<{ text: string }>().text).toBe('signature [REDACTED], database password [REDACTED]');
      await api('POST', '/api/servers/echo/resources/read', { sessionId: session, uri: 'secret://signature' });
      await api('POST', '/api/servers/echo/prompts/get', { sessionId: session, name: 'signed', arguments: { topic: 'keys' } });
      await api('GET', '/api/servers/echo');
      scriptEchoingModel();
      const started = (await api('POST', `/api/sessions/${session}/messages`, { text: 'Who are you?', model: 'openai:mock-model' })).json<{
        episodeId: string;
      }>();
      const events = await collectEvents(demo.url, session, (event) => event.type === 'episode_end' && event.episodeId === started.episodeId);
      answers.push(JSON.stringify(events));
      expect(events.at(-1)?.event).toMatchObject({ type: 'episode_end', status: 'ok', reply: 'Signed: [REDACTED] [REDACTED] [REDACTED]' });
      const log = await api('GET', `/api/servers/echo/rpc-log?session=${session}`);
      expect(log.text).toContain('secret://signature');
      await api('GET', `/api/sessions/${session}`);
      await api('GET', '/api/config');
    } finally {
      await demo.close();
      store.close();
      await host.close();
    }
    const written = filesUnder(demoDir);
    expect(written.some((file) => file.includes('server-logs'))).toBe(true);
    expect(written.some((file) => file.includes('session-logs'))).toBe(true);
    expect(leaksIn(written)).toEqual([]);
    for (const text of answers) for (const secret of secrets) expect(text).not.toContain(secret);
  }, 240_000);
});
