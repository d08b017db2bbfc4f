// The mock email and calendar servers as real child processes over MCP stdio: the scripted
// ground-truth trajectories of json/m3_radar_GT.json leave the database state their state
// checks require (read back from the real SQLite files), concurrent tasks never share a
// database, and a bad seed fails the call with the task id and the field.
import type { CallContext } from '../../src/core/tool-result-contract.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskDatabaseFile } from '../../src/core/task-database-file.js';
import { runStateChecks } from '../../src/eval/state/run-state-checks.js';
import { stateChecksOf } from '../../src/tasks/state-check.js';
import { loadSuite } from '../../src/tasks/verify-static.js';
import { repoRoot } from '../support/shared-assets.js';
import { toolCaller } from '../support/tool-caller.js';

const work = mkdtempSync(path.join(tmpdir(), 'm3-radar-'));
const seedsFile = path.join(work, 'seeds.json');
const suite = loadSuite(path.join(repoRoot, 'json', 'm3_radar_GT.json'), path.join(repoRoot, 'json', 'm3_radar_tasks.json'));
const clients = new Map<string, Client>();

function context(taskId: string, workspace: string, runId?: string): CallContext {
  return { taskId, workspace, ...(runId ? { runId } : {}) };
}

const email = toolCaller(() => clients.get('email') as Client);
const calendar = toolCaller(() => clients.get('calendar') as Client);
const callerOf = (server: string) => (server === 'email' ? email : calendar);

beforeAll(async () => {
  // The suite's own seeds, plus one task whose seed is wrong in one field.
  const seeds = JSON.parse(readFileSync(path.join(repoRoot, 'json', 'm3_radar_seeds.json'), 'utf8')) as Record<string, unknown>;
  seeds.BAD1 = { mails: [{ from: 'not-an-address', to: ['me@radar.test'], subject: 'x', date: '2026-03-01T10:00' }] };
  writeFileSync(seedsFile, JSON.stringify(seeds));
  for (const name of ['email', 'calendar']) {
    const client = new Client({ name: `${name}-test`, version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', `servers/${name}/index.ts`],
        cwd: repoRoot,
        env: { ...getDefaultEnvironment(), M3_ALLOWED_ROOTS: work, M3_RADAR_SEEDS: seedsFile },
        stderr: 'pipe',
      }),
    );
    clients.set(name, client);
  }
}, 60_000);

afterAll(async () => {
  for (const client of clients.values()) await client.close();
  rmSync(work, { recursive: true, force: true });
});

/** Replays a GT task's calls in order under its own workspace; returns that workspace. */
async function replay(taskId: string): Promise<string> {
  const task = suite.gt.find((entry) => entry.id === taskId);
  if (!task) throw new Error(`no task ${taskId}`);
  const workspace = path.join(work, 'replay', taskId);
  // A fresh workspace, as m3 tasks verify gives every replay: the task starts from its seed.
  rmSync(workspace, { recursive: true, force: true });
  for (const step of task.steps) {
    for (const call of step.calls) {
      const [server = '', tool = ''] = String(call.name).split('/');
      const answer = await callerOf(server).call(tool, call.arguments as Record<string, unknown>, context(taskId, workspace));
      expect(answer.isError, `${taskId} ${call.name}: ${answer.text}`).toBe((call as { expect_error?: boolean }).expect_error === true);
    }
  }
  return workspace;
}

describe('email and calendar servers', () => {
  it('end every scripted GT trajectory in the state its checks require', async () => {
    for (const task of suite.gt) {
      const workspace = await replay(task.id);
      const checks = stateChecksOf(task, task.id) ?? [];
      expect(checks.length, task.id).toBeGreaterThan(0);
      const outcomes = runStateChecks({ workspace, taskId: task.id }, checks);
      expect(
        outcomes.filter((outcome) => outcome.problem),
        task.id,
      ).toEqual([]);
    }
    // The real rows, read back directly: the reply of R0014 and the moved event of R0016.
    const mails = new Database(path.join(work, 'replay', 'R0014', 'email.sqlite'), { readonly: true });
    expect(mails.prepare("SELECT sender, recipients, subject, body, unread FROM mails WHERE folder = 'sent' ORDER BY id").all()).toEqual([
      { sender: 'me@radar.test', recipients: 'dave@radar.test', subject: 'Contract draft', body: 'Attached is the contract draft, version 3.', unread: 0 },
      { sender: 'me@radar.test', recipients: 'bob@radar.test', subject: 'Re: Team lunch', body: 'Count me in!', unread: 0 },
    ]);
    expect(mails.prepare('SELECT unread FROM mails WHERE id = 2').get()).toEqual({ unread: 0 });
    mails.close();
    const events = new Database(path.join(work, 'replay', 'R0016', 'calendar.sqlite'), { readonly: true });
    expect(events.prepare('SELECT title, start, end FROM events WHERE id = 2').get()).toEqual({
      title: 'Project sync',
      start: '2026-03-10T16:00',
      end: '2026-03-10T17:00',
    });
    events.close();
  }, 120_000);

  it('fails a state check the final state does not meet, saying what it found', async () => {
    const workspace = await replay('R0003');
    const outcomes = runStateChecks({ workspace, taskId: 'R0003' }, [
      { db: 'email', where: { folder: 'sent' }, count: 1 },
      { db: 'email', where: { subject: { contains: 'contract' } }, atLeast: 3 },
      { db: 'email', where: { colour: 'red' }, count: 0 },
      { db: 'calendar', where: {}, atLeast: 1 },
    ]);
    expect(outcomes.map((outcome) => outcome.problem)).toEqual([
      'expected exactly 1, found 2',
      'expected at least 3, found 2',
      expect.stringContaining('unknown column(s) colour of mails'),
      'expected at least 1, found 0 (no calendar database: the task never called that server)',
    ]);
  });

  it('gives concurrent tasks their own databases, also in a workspace they share', async () => {
    const a = path.join(work, 'concurrent', 'T-A');
    const b = path.join(work, 'concurrent', 'T-B');
    const shared = path.join(work, 'shared-media');
    // Sent at the same time; ids without a seed start empty.
    await Promise.all([
      email.ok('send_email', { to: ['x@radar.test'], subject: 'from A', body: '' }, context('T-A', a)),
      email.ok('send_email', { to: ['y@radar.test'], subject: 'from B', body: '' }, context('T-B', b)),
      email.ok('send_email', { to: ['z@radar.test'], subject: 'shared 1', body: '' }, context('S1', shared, 'run1')),
      email.ok('send_email', { to: ['z@radar.test'], subject: 'shared 2', body: '' }, context('S2', shared, 'run1')),
      calendar.ok('create_event', { title: 'A only', start: '2026-03-10T09:00', end: '2026-03-10T10:00' }, context('T-A', a)),
      calendar.ok('create_event', { title: 'B only', start: '2026-03-10T09:00', end: '2026-03-10T10:00' }, context('T-B', b)),
    ]);
    const subjects = async (taskId: string, workspace: string, runId?: string) =>
      ((await email.ok('list_emails', { folder: 'sent' }, context(taskId, workspace, runId))).emails as Array<{ subject: string }>).map((mail) => mail.subject);
    expect(await subjects('T-A', a)).toEqual(['from A']);
    expect(await subjects('T-B', b)).toEqual(['from B']);
    expect(await subjects('S1', shared, 'run1')).toEqual(['shared 1']);
    expect(await subjects('S2', shared, 'run1')).toEqual(['shared 2']);
    // The same task in another run of the shared workspace starts afresh.
    expect(await subjects('S1', shared, 'run2')).toEqual([]);
    expect(taskDatabaseFile({ workspace: shared, taskId: 'S1', runId: 'run1' }, 'email')).toBe(path.join(shared, 'task-state', 'run1', 'S1', 'email.sqlite'));
    const titles = (await calendar.ok('list_events', {}, context('T-B', b))).events as Array<{ title: string }>;
    expect(titles.map((event) => event.title)).toEqual(['B only']);
  });

  it('seeds a task on its first call and refuses a bad seed naming the task and field', async () => {
    const workspace = path.join(work, 'seeded', 'R0001');
    const inbox = await email.ok('list_emails', {}, context('R0001', workspace));
    expect(inbox.count).toBe(5);
    const bad = await email.call('list_emails', {}, context('BAD1', path.join(work, 'seeded', 'BAD1')));
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain(`${seedsFile}: at $.BAD1.mails[0].from: expected an email address`);
    // Still refused on the next call: no half-seeded database was left behind.
    expect((await email.call('list_emails', {}, context('BAD1', path.join(work, 'seeded', 'BAD1')))).isError).toBe(true);
  });

  it('refuses an overlapping event unless allow_conflict, and reports the conflict', async () => {
    const ctx = context('R0007', path.join(work, 'conflict', 'R0007'));
    const refused = await calendar.call('create_event', { title: 'Clash', start: '2026-03-10T09:10', end: '2026-03-10T09:20' }, ctx);
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('#1 "Standup"');
    const touching = await calendar.ok('create_event', { title: 'After standup', start: '2026-03-10T09:15', end: '2026-03-10T09:30' }, ctx);
    expect(touching.conflicts).toEqual([]);
    const forced = await calendar.ok('create_event', { title: 'Clash', start: '2026-03-10T09:10', end: '2026-03-10T09:20', allow_conflict: true }, ctx);
    expect((forced.conflicts as Array<{ title: string }>).map((event) => event.title)).toEqual(['Standup', 'After standup']);
    const moved = await calendar.call('update_event', { id: 3, start: '2026-03-10T14:30', end: '2026-03-10T14:45' }, ctx);
    expect(moved.text).toContain('"Project sync"');
  });
});
