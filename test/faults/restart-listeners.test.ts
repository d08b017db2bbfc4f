// Listeners on long-lived AbortSignals: the host's close signal across many restarts, and one
// task's signal across many calls. Node warns (MaxListenersExceededWarning) once eleven pile up.
import { afterAll, describe, expect, it } from 'vitest';
import { McpHost } from '../../src/mcp/host.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
process.on('warning', onWarning);
afterAll(() => {
  process.off('warning', onWarning);
});

describe('no listener leak', { timeout: 300_000 }, () => {
  it('survives six restarts and fifteen calls on one task signal without MaxListenersExceededWarning', async () => {
    const host = await McpHost.start([fixtureSpec('crashing')], {
      startupTimeoutMs: 90_000,
      logger: silent,
      restart: { initialDelayMs: 20, maxDelayMs: 100, waitMs: 60_000, maxAttempts: 10 },
    });
    try {
      for (let crash = 1; crash <= 6; crash += 1) {
        expect((await host.callTool('crashing/crash', {})).errorCode).toBe('server_crashed');
        expect((await host.callTool('crashing/counter', {})).text).toBe('1');
        expect(host.status()[0]?.restarts).toBe(crash);
      }
      const task = new AbortController();
      for (let call = 1; call <= 15; call += 1) expect((await host.callTool('crashing/counter', {}, { signal: task.signal })).text).toBe(String(call + 1));
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    } finally {
      await host.close();
    }
  });
});
