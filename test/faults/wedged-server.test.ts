// A server that is alive but no longer answers: after a tool timeout the host pings it, and a
// ping without an answer (the process is blocked) restarts it; a server that answers pings but
// times out on several calls in a row is restarted too. The next call then finds a fresh process.
import { afterEach, describe, expect, it } from 'vitest';
import { McpHost } from '../../src/mcp/host.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';

const warnings: string[] = [];
const logger = { debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
const restart = { initialDelayMs: 50, maxDelayMs: 400, waitMs: 60_000, pingTimeoutMs: 1000, restartAfterTimeouts: 3 };

describe('a wedged server', { timeout: 240_000 }, () => {
  let host: McpHost | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it('is restarted when it does not answer a ping after a tool timeout', async () => {
    host = await McpHost.start([fixtureSpec('crashing')], { startupTimeoutMs: 90_000, logger, restart });
    expect((await host.callTool('crashing/counter', {})).text).toBe('1');
    const firstPid = host.status()[0]?.pid;
    // Long enough that the server is surely blocked in the call (not still reading it) when the ping goes out.
    const frozen = await host.callTool('crashing/freeze', {}, { timeoutMs: 2000 });
    expect(frozen.errorCode).toBe('tool_timeout');
    // A fresh process counts from 1 again; the blocked one would not answer for a minute.
    const after = await host.callTool('crashing/counter', {}, { timeoutMs: 30_000 });
    expect(after.text).toBe('1');
    expect(host.status()[0]?.pid).not.toBe(firstPid);
    expect(host.status()[0]).toMatchObject({ state: 'ready', restarts: 1 });
    expect(warnings.join('\n')).toMatch(/"crashing" is running but not answering \(no answer to a ping within 1000 ms after a tool timeout\); restarting it/);
  });

  it('is restarted after several tool timeouts in a row even when it answers pings', async () => {
    host = await McpHost.start([fixtureSpec('crashing')], { startupTimeoutMs: 90_000, logger, restart });
    expect((await host.callTool('crashing/counter', {})).text).toBe('1');
    expect((await host.callTool('crashing/counter', {})).text).toBe('2');
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await host.callTool('crashing/hang', {}, { timeoutMs: 200 })).errorCode).toBe('tool_timeout');
    expect((await host.callTool('crashing/counter', {}, { timeoutMs: 30_000 })).text).toBe('1');
    expect(host.status()[0]?.restarts).toBe(1);
  });

  it('is left alone when slow calls time out but the server still answers', async () => {
    host = await McpHost.start([fixtureSpec('crashing')], { startupTimeoutMs: 90_000, logger, restart });
    expect((await host.callTool('crashing/counter', {})).text).toBe('1');
    expect((await host.callTool('crashing/hang', {}, { timeoutMs: 200 })).errorCode).toBe('tool_timeout');
    expect((await host.callTool('crashing/counter', {})).text).toBe('2');
    expect((await host.callTool('crashing/hang', {}, { timeoutMs: 200 })).errorCode).toBe('tool_timeout');
    expect((await host.callTool('crashing/counter', {})).text).toBe('3');
    // Calls in flight together that time out together count once: an overloaded server is not wedged.
    const together = await Promise.all(Array.from({ length: 4 }, () => host!.callTool('crashing/hang', {}, { timeoutMs: 200 })));
    expect(together.map((outcome) => outcome.errorCode)).toEqual(['tool_timeout', 'tool_timeout', 'tool_timeout', 'tool_timeout']);
    expect((await host.callTool('crashing/counter', {})).text).toBe('4');
    expect(host.status()[0]?.restarts).toBe(0);
  });
});
