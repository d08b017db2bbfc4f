// The call evaluator on the host's own failure messages, as older prediction files recorded
// them (text only, no error codes): a crash, a timeout, a stopped server are infrastructure and
// left unclassified, even when the crashed server's stderr tail says "not found" or "invalid".
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateCalls } from '../../src/eval/call/evaluate.js';
import { McpHost } from '../../src/mcp/host.js';
import { loadPredictions } from '../../src/tasks/load.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-classified-'));

/** The recorded results as an older file has them: name, arguments, result text, nothing else. */
async function classify(results: Array<{ name: string; text: string }>) {
  const record = {
    id: 'X1',
    question: 'q',
    final_reply: '',
    steps: [{ step: 1, calls: results.map((result) => ({ name: result.name, arguments: {}, result: result.text })) }],
  };
  const file = path.join(workDir, 'predictions.json');
  writeFileSync(file, JSON.stringify([record]));
  return (await evaluateCalls(loadPredictions(file))).per_call;
}

describe('host failure messages in old prediction files', { timeout: 240_000 }, () => {
  it('are infrastructure, whatever the stderr tail of the dead server says', async () => {
    const host = await McpHost.start([fixtureSpec('crashing'), fixtureSpec('slow')], {
      startupTimeoutMs: 90_000,
      logger: silent,
      restart: { initialDelayMs: 50, maxDelayMs: 400, waitMs: 60_000 },
    });
    const crash = await host.callTool('crashing/crash', { stderr: 'config file not found; invalid value for option --model' });
    expect(crash.errorCode).toBe('server_crashed');
    const timeout = await host.callTool('slow/sleep', { ms: 5000 }, { timeoutMs: 200 });
    expect(timeout.errorCode).toBe('tool_timeout');
    await host.close();
    const stopped = await host.callTool('slow/ping', {});
    expect(stopped.errorCode).toBe('server_unavailable');

    const labels = await classify([
      { name: 'crashing/crash', text: crash.text },
      { name: 'slow/sleep', text: timeout.text },
      { name: 'slow/ping', text: stopped.text },
    ]);
    expect(labels.map((record) => [record.label, record.reason])).toEqual([
      ['unclassified', 'infrastructure'],
      ['unclassified', 'infrastructure'],
      ['unclassified', 'infrastructure'],
    ]);
  });
});
