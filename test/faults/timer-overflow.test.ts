// Timeouts of 2^31 ms or more: Node fires such a timer after 1 ms, so `M3_TASK_TIMEOUT=9999999`
// used to end every task as "exceeded its budget". Absurd values are refused where users type
// them (switches, flags, mcp_servers.json) naming what was wrong, and a timer armed with a huge
// delay by a library caller is clamped instead of firing at once.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentOptions } from '../../src/agent/options.js';
import { parseServersConfig } from '../../src/config/servers.js';
import type { GenerateResponse, ModelDriver } from '../../src/llm/types.js';
import { McpHost } from '../../src/mcp/index.js';
import { runTask } from '../../src/runner/run-task.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { inProcessHost } from '../support/in-process-host.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { repoRoot } from '../support/shared-assets.js';

describe('timeouts at or above 2^31 ms', () => {
  it('m3 refuses M3_TASK_TIMEOUT / M3_LLM_TIMEOUT / M3_TOOL_CALL_TIMEOUT = 9999999, naming each switch and the bound', async () => {
    const { code, output } = await runM3InProcess(['config', 'check'], {
      M3_TASK_TIMEOUT: '9999999',
      M3_LLM_TIMEOUT: '9999999',
      M3_TOOL_CALL_TIMEOUT: '9999999',
    });
    expect(code, output).toBe(2);
    for (const name of ['M3_TASK_TIMEOUT', 'M3_LLM_TIMEOUT', 'M3_TOOL_CALL_TIMEOUT'])
      expect(output).toContain(`${name}="9999999": expected at most 2147483 seconds`);
  }, 60_000);

  it('m3 run refuses --startup-timeout 9999999 before starting anything', async () => {
    const { code, output } = await runM3InProcess(['run', '--startup-timeout', '9999999', '--tasks', path.join(os.tmpdir(), 'no-such-tasks.json')]);
    expect(code).not.toBe(0);
    expect(output).toMatch(/--startup-timeout.*expected at most 2147483 seconds/);
  }, 60_000);

  it('mcp_servers.json: a callTimeoutSec beyond the bound is refused with the field named', () => {
    const raw = { servers: { slowpoke: { command: 'node', callTimeoutSec: 9_999_999 } } };
    expect(() => parseServersConfig(raw, 'servers.json', { env: {}, root: repoRoot })).toThrowError(
      /servers\.json: at \$\.servers\.slowpoke\.callTimeoutSec: expected at most 2147483 seconds/,
    );
  });

  describe('a task budget passed in ms by a library caller', () => {
    let host: McpHost;
    beforeAll(async () => {
      // The clamp is the host's and the runner's; the echo server answers in process (no process is the point here).
      host = await McpHost.start([fixtureSpec('echo')], { requireAll: true, connectServer: inProcessHost().connectServer });
    });
    afterAll(async () => {
      await host?.close();
    });

    it('is clamped, not fired after 1 ms', async () => {
      const answer: GenerateResponse = {
        text: 'fine',
        toolCalls: [],
        stopReason: 'end',
        usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0 },
        latencyMs: 1,
        warnings: [],
      };
      const driver: ModelDriver = {
        id: 'wait:x',
        provider: 'wait',
        model: 'x',
        acceptsImages: true,
        generate: () => new Promise((resolve) => setTimeout(() => resolve(answer), 50)),
        classifyError: (error) => ({ errorClass: 'fatal', message: String(error) }),
      };
      const root = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-timer-'));
      const options: AgentOptions = {
        maxStep: 1,
        maxConcurrent: 1,
        topTools: 0,
        maxNewTokens: 10,
        mergePrepareWork: true,
        skipEndStage: true,
        instructionRole: 'user',
        toolResultMaxChars: 0,
        imagePolicy: { recodeOverKb: 0, maxEdge: 0 },
        retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 },
        toolCallTimeoutMs: 5000,
        imageRoots: [root],
      };
      const outcome = await runTask(
        { id: 'long-budget', image: undefined, type: undefined, tier: undefined, question: 'q' },
        { driver, host, options, root, runId: 'r', workspaceMode: 'dedup', keepWorkspace: true, imageSearchDirs: [root], taskTimeoutMs: 9_999_999_000 },
      );
      expect(outcome.ok ? 'ok' : outcome.verdict.message).toBe('ok');
    });
  });
});
