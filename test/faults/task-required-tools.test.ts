// A server listing a tool that only runs as a task-augmented call (`execution.taskSupport` =
// "required"): the host cannot call it, so it is not offered; status() and the log name it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callCheckedTool } from '../../src/mcp/checked-call.js';
import { McpHost } from '../../src/mcp/host.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';

const warnings: string[] = [];
const logger = { debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
let host: McpHost;

beforeAll(async () => {
  host = await McpHost.start([fixtureSpec('tasks')], { requireAll: true, startupTimeoutMs: 90_000, logger });
}, 120_000);
afterAll(async () => {
  await host?.close();
});

describe('task-augmented-only tools', () => {
  it('are withheld from the catalog and named in status and the log', async () => {
    expect(host.tools.map((tool) => tool.canonicalName)).toEqual(['tasks/plain', 'tasks/maybe_task']);
    expect(host.status()[0]?.withheldTools).toEqual(['background_job']);
    expect(warnings.join('\n')).toMatch(/mcp server "tasks": 1 tool\(s\) not offered .*task-augmented.*: background_job/);
    const refused = await callCheckedTool(host, 'tasks/background_job', {}, { context: { taskId: 't', workspace: '/tmp' } });
    expect(refused).toMatchObject({ errorCode: 'unknown_tool', refusal: { reason: 'unknown_tool' } });
    const optional = await callCheckedTool(host, 'tasks/maybe_task', {}, { context: { taskId: 't', workspace: '/tmp' } });
    expect(optional).toMatchObject({ isError: false, text: 'maybe_task ran' });
  });
});
