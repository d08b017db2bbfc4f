// State checks on a model's own run: `m3 run` (in this process: test/support/m3-in-process.ts, the
// mock LLM over the wire, the real email and calendar servers over MCP stdio, isolated workspaces
// removed after each task) on four RADAR tasks of the local suite, four at once. Two trajectories
// leave the state their task asks for, two leave a wrong one; the runner records every state check
// with its reason in the prediction (and the store) before the workspace goes, and `m3 eval task`
// passes and fails the tasks by them, with the reasons.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTaskFiles } from '../../src/eval/task/run.js';
import { taskMetricsTable } from '../../src/report/task-tables.js';
import { loadTaskResults } from '../../src/report/task-results.js';
import { episodesForRun, listRuns, openStore } from '../../src/store/index.js';
import type { GtTask } from '../../src/tasks/schemas.js';
import { startMockLlm, type MockLlm, type MockTurn, type RecordedRequest } from '../support/mock-llm/index.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { repoRoot } from '../support/shared-assets.js';
import { nodeEntryArgs } from '../support/built-entry.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-radar-run-'));
const gtFile = path.join(dir, 'radar-gt.json');
const configFile = path.join(dir, 'servers.json');
const resultsDir = path.join(dir, 'results');
const ids = ['R0003', 'R0005', 'R0006', 'R0008'];
let mock: MockLlm;

/** Per task (told apart by its question): the tool call the scripted model makes. R0005 and R0008 go wrong. */
const callFor: Array<[string, { name: string; arguments: unknown }]> = [
  [
    'Contract signed',
    { name: 'email__send_email', arguments: { to: ['dave@radar.test'], subject: 'Contract signed', body: 'The contract is signed, thanks!' } },
  ],
  // Asked to mark email 3 unread, it marks email 4.
  ['mark email 3 as unread', { name: 'email__mark_email', arguments: { id: 4, status: 'unread' } }],
  ['delete email 5', { name: 'email__delete_email', arguments: { id: 5 } }],
  // Asked for 10:00-11:00, it books 10:30-11:30.
  [
    'Code review',
    { name: 'calendar__create_event', arguments: { title: 'Code review', start: '2026-03-11T10:30', end: '2026-03-11T11:30', location: 'Room 2' } },
  ],
];

type Chat = { messages: Array<{ role: string; content: unknown }> };

function respond(request: RecordedRequest): MockTurn {
  const messages = (request.body as Chat).messages;
  const question = JSON.stringify(messages.find((message) => message.role === 'user')?.content);
  const call = callFor.find(([marker]) => question.includes(marker))?.[1];
  if (!call) return { text: 'No task I know.' };
  // The first turn waits a little, so the four tasks (concurrency 4) are in flight together.
  if (!messages.some((message) => message.role === 'tool')) return { toolCalls: [call], delayMs: 300 };
  return { text: 'Done.' };
}

beforeAll(async () => {
  const suite = JSON.parse(readFileSync(path.join(repoRoot, 'json', 'm3_radar_GT.json'), 'utf8')) as GtTask[];
  writeFileSync(gtFile, JSON.stringify(suite.filter((task) => ids.includes(task.id))));
  const seeds = path.join(repoRoot, 'json', 'm3_radar_seeds.json');
  const server = (name: string) => ({ command: 'node', args: nodeEntryArgs(`servers/${name}/index.ts`), env: { M3_RADAR_SEEDS: seeds } });
  writeFileSync(configFile, JSON.stringify({ servers: { email: server('email'), calendar: server('calendar') } }));
  mock = await startMockLlm({ respond });
}, 60_000);

afterAll(async () => {
  await mock?.close();
});

describe('state checks on a real run', () => {
  it('records each task its own final state and m3 eval task passes and fails the tasks by it', async () => {
    const run = await runM3InProcess(
      ['run', '--model', 'openai:mock-model', '--tasks', gtFile, '--config', configFile, '--run-dir', resultsDir, '--run-id', 'radar', '--concurrency', '4'],
      { OPENAI_BASE_URL: mock.openAiBaseUrl, OPENAI_API_KEY: 'sk-test-radar-000000000000', M3_LLM_MAX_RETRIES: '0', M3_WORKSPACE_MODE: 'isolated' },
    );
    expect(run.code, run.output).toBe(0);
    // Isolated workspaces are removed after each task: the checks ran before that.
    expect(existsSync(path.join(repoRoot, 'media', 'runs', 'radar'))).toBe(false);

    const predFile = path.join(resultsDir, 'mock-model_test_mcp_fuzzy.json');
    const predictions = JSON.parse(readFileSync(predFile, 'utf8')) as Array<{ id: string; state_results?: unknown }>;
    const stateOf = (id: string) => predictions.find((record) => record.id === id)?.state_results;
    expect(stateOf('R0003')).toEqual([
      {
        check:
          'exactly 1 mails row(s) where folder = "sent" and recipients contains "dave@radar.test" and subject = "Contract signed" and sender = "me@radar.test"',
        passed: true,
        found: 1,
        reason: 'holds (found 1)',
      },
    ]);
    expect(stateOf('R0005')).toEqual([
      { check: 'exactly 1 mails row(s) where id = 3 and unread = true', passed: false, found: 0, reason: 'expected exactly 1, found 0' },
    ]);
    // Each task saw only its own database: the deletion left 4 mails in this task's inbox, and the
    // calendar task's 5 events are its own seed plus its one booking, whatever the others did.
    expect(stateOf('R0006')).toMatchObject([
      { passed: true, found: 1 },
      { passed: true, found: 4 },
    ]);
    expect(stateOf('R0008')).toEqual([
      {
        check: 'exactly 1 events row(s) where title = "Code review" and start = "2026-03-11T10:00" and end = "2026-03-11T11:00" and location = "Room 2"',
        passed: false,
        found: 0,
        reason: 'expected exactly 1, found 0',
      },
      { check: 'exactly 5 events row(s)', passed: true, found: 5, reason: 'holds (found 5)' },
    ]);

    // The store's prediction column carries the same results.
    const store = openStore(path.join(resultsDir, 'm3bench.sqlite'), { readonly: true });
    try {
      const runId = listRuns(store)[0]?.runId ?? '';
      const stored = episodesForRun(store, runId).map((episode): [string, unknown] => [
        episode.taskId,
        (episode.prediction as { state_results?: unknown } | null)?.state_results,
      ]);
      expect(new Map(stored).get('R0005')).toEqual(stateOf('R0005'));
    } finally {
      store.close();
    }

    const { document } = await runTaskFiles({ gtFile, predFile, outputDir: path.join(dir, 'task') });
    const byId = new Map(document.per_task.map((record) => [record.id, record]));
    expect(ids.map((id) => [id, byId.get(id)?.success, byId.get(id)?.success_rule])).toEqual([
      ['R0003', true, 'checks'],
      ['R0005', false, 'checks'],
      ['R0006', true, 'checks'],
      ['R0008', false, 'checks'],
    ]);
    expect(byId.get('R0005')?.checks.filter((check) => !check.passed)).toEqual([
      {
        kind: 'state',
        evaluator: 'state: exactly 1 mails row(s) where id = 3 and unread = true',
        passed: false,
        reason: 'expected exactly 1, found 0',
        actual: 0,
      },
    ]);
    expect(document.aggregate.state_pass_rate).toEqual({ rate: 0.5, numerator: 2, denominator: 4 });
    expect(document.aggregate.state_check_pass_rate).toEqual({ rate: 4 / 6, numerator: 4, denominator: 6 });
    expect(document.aggregate.task_success_rate).toEqual({ rate: 0.5, numerator: 2, denominator: 4 });
    expect(document.not_evaluated).toEqual([]);
    expect(document.success_rule).toContain('state checks on the databases its run left');

    // The report's task-level table shows the same rate, read back from the file m3 eval task wrote.
    const table = taskMetricsTable(loadTaskResults(dir, ['task']));
    const column = table?.header.indexOf('state checks hold') ?? -1;
    expect(column).toBeGreaterThan(0);
    expect(table?.rows[0]?.[column]).toBe(0.5);
  }, 180_000);
});
