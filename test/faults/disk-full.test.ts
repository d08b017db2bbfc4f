// A run whose store sits on a 1.5 MB tmpfs (`mount -t tmpfs -o size=1500k`, root only): when the disk
// fills, the run stops with "disk full" and how to resume (exit 2), not with an internal error
// about a missing episode; every task the progress printed as `ok` has its rows committed; and
// after space is freed, the resume finishes every task. The run that fills the disk is a real
// child (its exit status is main.ts's); the resume runs in the test's process (run-child.ts).
// Skipped, saying why, where no tmpfs can be mounted (not root, or no mount permission in the
// container).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { episodesForRun, listRuns, openStore } from '../../src/store/index.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { runM3, runM3Child, taskFolder } from './run-child.js';

function mountTmpfs(): { dir: string; reason?: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-disk-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1500k', 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (error) {
    rmdirSync(dir);
    return { dir, reason: `cannot mount a 1.5 MB tmpfs (${String((error as { stderr?: unknown }).stderr ?? error).trim()}); run as root to test a full disk` };
  }
}

const tmpfs = process.getuid?.() === 0 ? mountTmpfs() : { dir: '', reason: 'not root: mounting a 1.5 MB tmpfs needs root' };
let mock: MockLlm;

beforeAll(async () => {
  // Each answer is long (50 KB), so each task's rows take room (about 125 KB) and the 1.5 MB fill
  // after some eight tasks (the empty store takes 90 KB), well before the 24 of the run, which
  // leaves the resume sixteen to finish: the cost of a task is mostly per task, not per byte, so
  // few long tasks fill the disk for less work than many short ones.
  mock = await startMockLlm({ fallback: { text: `The answer is 5. ${'Reasoning at length. '.repeat(2400)}` } });
});

afterAll(async () => {
  await mock?.close();
  if (!tmpfs.reason) {
    execFileSync('umount', [tmpfs.dir]);
    rmdirSync(tmpfs.dir);
  }
});

/** Task ids the progress printed as `<id> ok`. */
function printedOk(stderr: string): string[] {
  return [...stderr.matchAll(/(?:^|\s)(t\d{3}) ok$/gm)].map((match) => match[1] as string);
}

describe.skipIf(Boolean(tmpfs.reason))(`a run on a full disk${tmpfs.reason ? ` (skipped: ${tmpfs.reason})` : ''}`, () => {
  it('stops with "disk full" and how to resume; `ok` only for committed tasks; the resume finishes the rest', async () => {
    const ids = Array.from({ length: 24 }, (_, index) => `t${String(index).padStart(3, '0')}`);
    const folder = taskFolder(
      'disk-full',
      ids.map((id) => ({ id, image: 'dot.png' })),
    );
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#444' } })
      .png()
      .toFile(path.join(folder.dir, 'dot.png'));
    const store = path.join(tmpfs.dir, 'm3bench.sqlite');
    const args = ['run', '--model', 'openai:mock-model', ...folder.args, '--store', store, '--run-id', 'full'];
    const env = {
      OPENAI_API_KEY: 'k3y-disk-full-0123',
      OPENAI_BASE_URL: mock.openAiBaseUrl,
      M3_LLM_MAX_RETRIES: '0',
      M3_WORKSPACE_MODE: 'isolated',
      M3_KEEP_WORKSPACE: '0',
    };

    const first = await runM3Child(args, env);
    expect(first.code, first.stderr).toBe(2);
    expect(first.stderr).toContain('disk full');
    expect(first.stderr).toContain('free space on the disk holding it and resume the run: run the same command with --resume full');
    expect(first.stderr).not.toMatch(/no episode \d+/);
    const ok = printedOk(first.stderr);
    expect(ok.length).toBeGreaterThan(0);
    expect(ok.length).toBeLessThan(ids.length);

    // Every task printed ok is in the store as ok.
    const opened = openStore(store, { readonly: true });
    try {
      const runId = listRuns(opened, {})[0]?.runId ?? '';
      const stored = new Set(
        episodesForRun(opened, runId, {})
          .filter((episode) => episode.status === 'ok')
          .map((episode) => episode.taskId),
      );
      expect(ok.filter((id) => !stored.has(id))).toEqual([]);
    } finally {
      opened.close();
    }

    // Space freed: the tmpfs grows to 64 MB, and the same command with --resume finishes the run.
    execFileSync('mount', ['-o', 'remount,size=64m', tmpfs.dir]);
    const resumed = await runM3([...args, '--resume'], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    const done = openStore(store, { readonly: true });
    try {
      const runId = listRuns(done, {})[0]?.runId ?? '';
      const okTasks = new Set(
        episodesForRun(done, runId, {})
          .filter((episode) => episode.status === 'ok')
          .map((episode) => episode.taskId),
      );
      expect(okTasks.size).toBe(ids.length);
    } finally {
      done.close();
    }
  }, 300_000);
});
