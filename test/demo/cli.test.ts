// `m3 demo` and scripts/demo.sh as real child processes: the URL on stdout, the default model
// discovered from OPENAI_BASE_URL (the mock), a message end to end, the run row in the store,
// and a clean shutdown on SIGTERM that takes the MCP servers down with it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRuns, openStore } from '../../src/store/index.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { repoRoot } from '../support/shared-assets.js';
import { collectEvents, pageHeaders, testApiKey } from './demo-harness.js';
import { distIsFresh, m3EntryArgs, nodeEntryArgs } from '../support/built-entry.js';

let workDir: string;
let mock: MockLlm;
let configFile: string;

beforeAll(async () => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-demo-cli-'));
  configFile = path.join(workDir, 'servers.json');
  writeFileSync(configFile, JSON.stringify({ servers: { math: { command: 'node', args: nodeEntryArgs('servers/math/index.ts') } } }));
  mock = await startMockLlm({ models: ['mock-model', 'other-model'] });
});
afterAll(async () => {
  await mock?.close();
  rmSync(workDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exit: Promise<number | null>;
}

function start(command: string, args: string[], env: Record<string, string | undefined>): Promise<Started> {
  const child = spawn(command, args, { cwd: repoRoot, env: { ...env, M3_LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL on stdout within 60 s; stderr:\n${stderr}`)), 60_000);
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve({ child, url: line, stderr: () => stderr, exit });
    });
    void exit.then((code) => reject(new Error(`exited with ${code} before printing a URL; stderr:\n${stderr}`)));
  });
}

/** Direct children of a process (the MCP servers of the demo), from /proc. */
function childPids(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(pid);
      } catch {
        return false;
      }
    })
    .map(Number);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('m3 demo as a process', () => {
  it('prints its URL, runs a message with the model found at OPENAI_BASE_URL, and shuts down on SIGTERM', async () => {
    const env = { ...process.env, OPENAI_BASE_URL: mock.openAiBaseUrl, OPENAI_API_KEY: testApiKey };
    const storeFile = path.join(workDir, 'store.sqlite');
    const demo = await start(
      process.execPath,
      [...m3EntryArgs(), 'demo', '--port', '0', '--config', configFile, '--store', storeFile, '--log-dir', path.join(workDir, 'log'), '--max-step', '2'],
      env,
    );
    expect(demo.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const config = await (await fetch(`${demo.url}api/config`)).text();
    expect(JSON.parse(config)).toMatchObject({ models: [{ id: 'openai:mock-model', available: true }], loop: { maxStep: 2 } });
    expect(config).not.toContain(testApiKey);

    const session = (await (await fetch(`${demo.url}api/sessions`, { method: 'POST', headers: pageHeaders(demo.url) })).json()) as { id: string };
    mock.enqueue({ text: 'Hello from the mock.' });
    const started = (await (
      await fetch(`${demo.url}api/sessions/${session.id}/messages`, {
        method: 'POST',
        headers: pageHeaders(demo.url),
        body: JSON.stringify({ text: 'Hi', model: 'openai:mock-model' }),
      })
    ).json()) as { episodeId: string };
    const events = await collectEvents(demo.url, session.id, (event) => event.type === 'episode_end');
    expect(events.at(-1)?.event).toMatchObject({ episodeId: started.episodeId, status: 'ok', reply: 'Hello from the mock.' });
    expect(readdirSync(path.join(workDir, 'log')).filter((name) => name.endsWith(`_${session.id}.json`))).toHaveLength(1);

    const servers = childPids(demo.child.pid ?? -1);
    expect(servers.length).toBeGreaterThan(0);
    demo.child.kill('SIGTERM');
    expect(await demo.exit).toBe(0);
    // A killed child can take a moment to be reaped after its parent exits; allow a short grace.
    const deadline = Date.now() + 5000;
    while (servers.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(servers.filter(alive)).toEqual([]);
    expect(demo.stderr()).toMatch(/SIGTERM received, shutting down/);
    const store = openStore(storeFile, { readonly: true });
    try {
      expect(listRuns(store, { modelLabel: 'demo' })).toEqual([expect.objectContaining({ modelSpec: 'openai:mock-model', status: 'finished' })]);
    } finally {
      store.close();
    }
  });

  it('scripts/demo.sh forwards flags and, with no model anywhere, serves the playground only', async () => {
    // The script's own switch to the compiled CLI when dist/ is fresh (as the other children here):
    // what the script forwards is checked the same either way, at a third of tsx's start-up CPU.
    const env: Record<string, string | undefined> = { ...process.env, M3_SKIP_ASSETS: '1', M3_USE_DIST: distIsFresh() ? '1' : '0' };
    delete env.OPENAI_BASE_URL;
    const demo = await start('bash', ['scripts/demo.sh', '--port', '0', '--config', configFile, '--no-store', '--log-dir', path.join(workDir, 'log-sh')], env);
    const config = (await (await fetch(`${demo.url}api/config`)).json()) as { models: unknown[]; note: string };
    expect(config.models).toEqual([]);
    expect(config.note).toMatch(/No model is configured: start the demo with --model provider:model/);
    const sum = await fetch(`${demo.url}api/sessions`, { method: 'POST', headers: pageHeaders(demo.url) });
    const session = (await sum.json()) as { id: string };
    const call = await fetch(`${demo.url}api/tools/call`, {
      method: 'POST',
      headers: pageHeaders(demo.url),
      body: JSON.stringify({ sessionId: session.id, tool: 'math/sum', arguments: { numbers: [1, 2, 3] } }),
    });
    expect(await call.json()).toMatchObject({ text: '6', isError: false });
    demo.child.kill('SIGINT');
    expect(await demo.exit).toBe(0);
  });
});
