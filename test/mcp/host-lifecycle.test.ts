// McpHost process lifecycle with real children: crashes with in-flight calls, restarts with
// backoff, giving up, start failures that do not stop other servers, stderr logging, close().
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServerError } from '../../src/errors/index.js';
import { McpHost } from '../../src/mcp/host.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { inProcessHost } from '../support/in-process-host.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
// The CI machine is small and shared; give children time to boot, but keep backoffs short.
const startupTimeoutMs = 90_000;
const fastRestart = { initialDelayMs: 50, maxDelayMs: 400, waitMs: 60_000 };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // succeeds for zombies too, so ESRCH also proves the child was reaped
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

let workDir: string;
beforeAll(() => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-lifecycle-'));
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('crash handling', { timeout: 240_000 }, () => {
  let host: McpHost | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it('resolves every in-flight call at once with server_crashed and restarts the server', async () => {
    host = await McpHost.start([fixtureSpec('crashing')], { startupTimeoutMs, restart: fastRestart, logger: silent, callTimeoutMs: 120_000 });
    expect((await host.callTool('crashing/counter', {})).text).toBe('1');
    expect((await host.callTool('crashing/counter', {})).text).toBe('2');
    const firstPid = host.status()[0]?.pid;

    const [hangA, hangB, crash] = await Promise.all([
      host.callTool('crashing/hang', {}),
      host.callTool('crashing/hang', {}),
      host.callTool('crashing/crash', { code: 3 }),
    ]);
    // The hanging calls would wait for the 120 s call timeout and then say tool_timeout: server_crashed
    // on each proves the crash resolved them, with no clock.
    for (const outcome of [hangA, hangB, crash]) {
      expect(outcome.errorCode).toBe('server_crashed');
      expect(outcome.isError).toBe(true);
      expect(outcome.text).toContain('server "crashing" exited unexpectedly (exit code 3)');
      expect(outcome.text).toContain('fatal: fixture crash requested');
    }
    expect(crash.text).toMatch(/^\[Tool error\] .* during crashing\/crash/);

    // The next call waits for the background restart; a fresh process counts from 1 again.
    const after = await host.callTool('crashing/counter', {});
    expect(after.text).toBe('1');
    const status = host.status()[0];
    expect(status).toMatchObject({ state: 'ready', restarts: 1 });
    expect(status?.pid).not.toBe(firstPid);
    expect(firstPid !== undefined && isAlive(firstPid)).toBe(false);
  });

  it('names the signal when the child is killed', async () => {
    host = await McpHost.start([fixtureSpec('crashing')], { startupTimeoutMs, restart: fastRestart, logger: silent });
    const outcome = await host.callTool('crashing/crash', { signal: true });
    expect(outcome.errorCode).toBe('server_crashed');
    expect(outcome.text).toContain('killed by SIGKILL');
  });

  it('gives up after the configured restart attempts and answers server_unavailable', async () => {
    const marker = path.join(workDir, 'crash-on-start');
    host = await McpHost.start([fixtureSpec('crashing', { env: { CRASH_ON_START_FILE: marker } })], {
      startupTimeoutMs,
      restart: { ...fastRestart, maxAttempts: 2 },
      logger: silent,
    });
    writeFileSync(marker, 'x');
    expect((await host.callTool('crashing/crash', {})).errorCode).toBe('server_crashed');
    const unavailable = await host.callTool('crashing/counter', {});
    expect(unavailable.errorCode).toBe('server_unavailable');
    expect(unavailable.text).toContain('gave up after 2 restart attempts');
    expect(unavailable.text).toContain('exit code 7');
    expect(host.status()[0]).toMatchObject({ state: 'failed', restarts: 2 });
  });

  it('answers server_unavailable when a restart is not ready within the wait bound', async () => {
    host = await McpHost.start([fixtureSpec('crashing')], {
      startupTimeoutMs,
      restart: { initialDelayMs: 30_000, maxDelayMs: 30_000, waitMs: 200 },
      logger: silent,
    });
    await host.callTool('crashing/crash', {});
    const outcome = await host.callTool('crashing/counter', {});
    expect(outcome.errorCode).toBe('server_unavailable');
    expect(outcome.text).toContain('is restarting after a crash');
    // The restart is 30 s away: had the call waited for it, it would have answered from the
    // restarted server (counter 1); "is restarting" proves the wait bound cut it, with no clock.
  });
});

// The working echo server runs in process (connectServer); the failing ones are real start attempts.
describe('start failures and isolation', { timeout: 240_000 }, () => {
  it('keeps working servers when others fail to start, and reports why', async () => {
    const host = await McpHost.start(
      [
        fixtureSpec('echo'),
        { ...fixtureSpec('echo'), name: 'missing', command: '/nonexistent/m3-no-such-server' },
        { ...fixtureSpec('echo'), name: 'dies', command: process.execPath, args: ['-e', 'process.stderr.write("boom: bad config value\\n"); process.exit(4)'] },
        // mute never answers, so a short start-up bound always fires, whatever the load, and the test waits only that long.
        { ...fixtureSpec('echo'), name: 'mute', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], startupTimeoutMs: 300 },
      ],
      { startupTimeoutMs, logger: silent, connectServer: inProcessHost().connectServer },
    );
    try {
      const byName = Object.fromEntries(host.status().map((server) => [server.name, server]));
      expect(byName.echo?.state).toBe('ready');
      expect(byName.missing?.state).toBe('failed');
      expect(byName.missing?.error).toContain('command "/nonexistent/m3-no-such-server" not found (ENOENT)');
      expect(byName.missing?.error).toContain('servers.missing.command');
      expect(byName.dies?.state).toBe('failed');
      expect(byName.dies?.error).toContain('exit code 4');
      expect(byName.dies?.error).toContain('boom: bad config value');
      expect(byName.mute?.state).toBe('failed');
      expect(byName.mute?.error).toContain('no answer to initialize/tools/list within 300 ms');
      expect(host.tools.every((tool) => tool.server === 'echo')).toBe(true);
      expect((await host.callTool('echo/echo', { text: 'still here' })).text).toBe('still here');
      expect((await host.callTool('dies/anything', {})).errorCode).toBe('unknown_tool');
    } finally {
      await host.close();
    }
  });

  it('with requireAll, closes everything and throws a ServerError naming the failed server', async () => {
    const attempt = McpHost.start([fixtureSpec('echo'), { ...fixtureSpec('echo'), name: 'ghost', command: '/nonexistent/ghost-server' }], {
      startupTimeoutMs,
      requireAll: true,
      logger: silent,
      connectServer: inProcessHost().connectServer,
    });
    await expect(attempt).rejects.toBeInstanceOf(ServerError);
    await expect(attempt).rejects.toThrow(/1 MCP server\(s\) failed to start: ghost/);
  });
});

describe('stderr capture and close()', { timeout: 240_000 }, () => {
  it('drains a noisy stderr into the per-server log file and keeps a 50-line tail', async () => {
    const logDir = path.join(workDir, 'logs');
    const host = await McpHost.start([fixtureSpec('noisy', { env: { NOISY_STARTUP_LINES: '3000' } })], { startupTimeoutMs, logDir, logger: silent });
    try {
      expect((await host.callTool('noisy/shout', { lines: 120 })).text).toBe('wrote 120 lines');
      const status = host.status()[0];
      expect(status?.logFile).toBe(path.join(logDir, 'noisy.stderr.log'));
      await expect.poll(() => status && host.status()[0]?.stderrTail?.at(-1), { timeout: 30_000 }).toBe('shout line 119');
      expect(host.status()[0]?.stderrTail).toHaveLength(50);
    } finally {
      await host.close();
    }
    const logged = readFileSync(path.join(logDir, 'noisy.stderr.log'), 'utf8');
    expect(logged).toContain('startup noise line 0 ');
    expect(logged).toContain('startup noise line 2999 ');
    expect(logged).toContain('shout line 119\n');
    expect(logged).toMatch(/--- .* started pid \d+: /);
  });

  it('close() stops every child (none left alive or zombie) and marks servers stopped', async () => {
    const host = await McpHost.start([fixtureSpec('echo'), fixtureSpec('slow'), fixtureSpec('crashing')], { startupTimeoutMs, logger: silent });
    const pids = host.status().map((server) => server.pid);
    expect(pids.every((pid) => typeof pid === 'number')).toBe(true);
    const pending = host.callTool('slow/sleep', { ms: 30_000 }, { timeoutMs: 0 });
    await host.close();
    for (const pid of pids) expect(isAlive(pid ?? -1)).toBe(false);
    expect(host.status().map((server) => server.state)).toEqual(['stopped', 'stopped', 'stopped']);
    const outcome = await pending;
    expect(outcome.isError).toBe(true);
    expect((await host.callTool('echo/echo', { text: 'x' })).errorCode).toBe('server_unavailable');
    expect(existsSync(workDir)).toBe(true);
  });
});
