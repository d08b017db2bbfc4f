// The RADAR mock-domain suite (json/m3_radar_*.json) replayed by `m3 tasks verify`'s code path
// on the real email and calendar servers, as mcp_servers.json configures them: every task
// passes, facts and state checks included; a task whose state check the trajectory does not
// meet fails with the check named, and a malformed check names its field.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProjectConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { McpHost } from '../../src/mcp/host.js';
import type { GtTask } from '../../src/tasks/schemas.js';
import { loadSuite, type LoadedSuite } from '../../src/tasks/verify-static.js';
import { verifySuite } from '../../src/tasks/verify.js';
import { repoRoot } from '../support/shared-assets.js';

const suite = loadSuite(path.join(repoRoot, 'json', 'm3_radar_GT.json'), path.join(repoRoot, 'json', 'm3_radar_tasks.json'));
let host: McpHost | undefined;

function withChecks(id: string, checks: unknown): LoadedSuite {
  return { ...suite, gt: structuredClone(suite.gt).map((task) => (task.id === id ? { ...task, state_checks: checks as GtTask['state_checks'] } : task)) };
}

beforeAll(async () => {
  const config = loadProjectConfig();
  host = await McpHost.start(
    config.servers.filter((spec) => spec.name === 'email' || spec.name === 'calendar'),
    { startupTimeoutMs: 120_000, requireAll: true, logger: createLogger('error') },
  );
}, 150_000);

afterAll(async () => {
  await host?.close();
});

describe('m3 tasks verify on the RADAR suite', () => {
  it('passes every task, single- and multi-tool, with every state check held', async () => {
    if (!host) throw new Error('host did not start');
    const report = await verifySuite({ suite, host, root: repoRoot });
    expect(report.tasks.flatMap((task) => task.problems.map((problem) => `${task.id}: ${problem}`))).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.tasks.length).toBeGreaterThanOrEqual(20);
    expect(report.tasks.filter((task) => task.calls === 1).length).toBeGreaterThanOrEqual(10);
    expect(report.tasks.filter((task) => task.calls > 1).length).toBeGreaterThanOrEqual(10);
  }, 120_000);

  it('fails a task whose final state misses a check, naming the check and the count found', async () => {
    if (!host) throw new Error('host did not start');
    const report = await verifySuite({
      suite: withChecks('R0003', [{ db: 'email', where: { folder: 'sent', subject: 'Contract signed' }, count: 2 }]),
      host,
      root: repoRoot,
      only: ['R0003'],
    });
    expect(report.passed).toBe(false);
    expect(report.tasks[0]?.problems).toEqual([
      'state check 1 (exactly 2 mails row(s) where folder = "sent" and subject = "Contract signed"): expected exactly 2, found 1',
    ]);
  }, 60_000);

  it('reports a malformed state check by its field', async () => {
    if (!host) throw new Error('host did not start');
    const report = await verifySuite({ suite: withChecks('R0010', [{ db: 'calendar', where: {}, count: 'three' }]), host, root: repoRoot, only: ['R0010'] });
    expect(report.tasks[0]?.problems.join('\n')).toContain('task R0010 state_checks: at $[0].count: Invalid input: expected number, received string');
  }, 60_000);
});
