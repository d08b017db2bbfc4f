// `m3 dataset ...`: verify on the shared copy of the original files (the STATS.md numbers, exit
// codes), the offline message, and a pull killed with SIGKILL in the middle of a slow download (a
// real child process) that the next run resumes from its .part and verifies. The commands that
// run to their end run in this process (test/support/m3-in-process.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, sharedDataDir } from '../support/shared-assets.js';
import { commit, datasetFiles, imagePartFile, missingDataMessage, repo, tempLayout } from './fixtures.js';
import { closedPort, hubFakes, sha256Of } from './hub-fake.js';
import { m3EntryArgs } from '../support/built-entry.js';
import { runM3InProcess } from '../support/m3-in-process.js';

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const token = 'hf_cli_secret_token_9876543210';
const files = datasetFiles();
const data = sharedDataDir();
if ((!files || !data) && process.env.CI) throw new Error(missingDataMessage);
const startHubFake = hubFakes();

function startCli(args: string[], env: Record<string, string> = {}): { child: ChildProcess; done: Promise<Run> } {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('HF_') && key !== 'CI'));
  const child = spawn(process.execPath, [...m3EntryArgs(), 'dataset', ...args], { cwd: repoRoot, env: { ...inherited, CI: '1', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

/** `m3 dataset <args>` to its end in this process (test/support/m3-in-process.ts), with no HF_* variable of the test run's environment. */
async function runCli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const dropped = Object.fromEntries(Object.keys(process.env).flatMap((key) => (key.startsWith('HF_') ? [[key, undefined]] : [])));
  return { ...(await runM3InProcess(['dataset', ...args], { ...dropped, ...env })), signal: null };
}

async function waitForBytes(file: string, atLeast: number, run: Promise<Run>): Promise<void> {
  let exited = false;
  void run.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`the pull ended before ${file} reached ${atLeast} bytes`);
    if (existsSync(file) && statSync(file).size >= atLeast) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.skipIf(!data)(`m3 dataset verify on the shared copy${data ? '' : ` (skipped: ${missingDataMessage})`}`, () => {
  it('prints the STATS.md counts; all images missing fails unless --allow-missing-images', async () => {
    const layout = tempLayout();
    const args = [
      'verify',
      '--tasks',
      path.join(data ?? '', 'tasks_fuzzy.json'),
      '--gt',
      path.join(data ?? '', 'test_mcp_GT.json'),
      '--image-dir',
      layout.imageDir,
      '--lock',
      layout.lockFile,
    ];
    const strict = await runCli(args);
    expect(strict.code).toBe(1);
    const expected = [
      'GT entries: 213; unique ids: 208; duplicated ids: 5 (identical copies: 00230000, 00230005, 00230006, 00230008; differing copies: 00070008)',
      'task types: 30 (all entries: 31)',
      'steps: 648 (all entries: 664); steps with more than one parallel call: 284 (all entries: 289); tasks with a parallel step: 182',
      'tool calls: 1355 (all entries: 1387); distinct servers: 27; distinct tools: 70',
      'fuzzy tasks: 141 (141 unique ids, 18 types); fuzzy ids with GT: 137 (852 GT calls, 19 servers)',
      'tasks with an image: 208; ending in .png: 208',
      'paths "images/<8 digits>.png": 181; "./images/<8 digits>.png": 26; other: images/000400002.png (task 00040002)',
      'distinct image names: 206; tasks whose image name differs from their id: 10',
      'fuzzy ids without GT: 4 (00010001, 00020006, 00020007, 00070009); GT ids without a fuzzy task: 71',
      'shared ids whose type differs: 19; whose image differs: 1 (00010006)',
      'calls with a recorded result: 42 in 3 task(s) (00080004: 29, 00080007: 12, 00090000: 1)',
      'named by the task files: 208; ok: 0; missing: 208',
      'dataset check FAILED: 208 of 208 image(s) missing',
    ];
    for (const line of expected) expect(strict.stdout).toContain(line);
    expect(strict.stdout).toContain(`Lock file: none at ${layout.lockFile}`);

    const allowed = await runCli([...args, '--allow-missing-images']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('dataset check passed');
  }, 240_000);
});

describe('m3 dataset pull offline', () => {
  it('a refused connection says the host cannot be reached, that the dataset is not bundled, and what runs without it; the token is never printed', async () => {
    const port = await closedPort();
    const layout = tempLayout();
    const run = await runCli(['pull', '--dest', layout.jsonDir, '--image-dir', layout.imageDir], { HF_ENDPOINT: `http://127.0.0.1:${port}`, HF_TOKEN: token });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(
        `m3: cannot reach 127\\.0\\.0\\.1:${port}: you are offline or it is blocked \\(.*ECONNREFUSED.*\\); the dataset is not bundled with m3bench; `,
      ),
    );
    expect(run.stderr).toContain('`m3 run --placeholder-images` (a labelled pipeline check)');
    expect(`${run.stdout}${run.stderr}`).not.toContain(token);
    expect(existsSync(layout.jsonDir)).toBe(false);
  }, 120_000);
});

describe.skipIf(!files)(`m3 dataset pull, killed and resumed${files ? '' : ` (skipped: ${missingDataMessage})`}`, () => {
  it('SIGKILL mid-download leaves a .part; the next run continues it with Range, verifies it, and verify agrees with the lock', async () => {
    const fake = await startHubFake({ repo, commit, files: files ?? [] });
    const big = files?.find((file) => file.path === 'images/00020000.png')?.bytes ?? Buffer.alloc(0);
    fake.slow.set('images/00020000.png', { chunkBytes: 8192, intervalMs: 40 });
    const layout = tempLayout();
    const env = { HF_ENDPOINT: fake.endpoint, HF_TOKEN: token };
    const pullArgs = ['pull', '--dest', layout.jsonDir, '--image-dir', layout.imageDir];
    const part = imagePartFile(layout, 'images/00020000.png');

    const first = startCli(pullArgs, env);
    await waitForBytes(part, 100_000, first.done);
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    const kept = statSync(part).size;
    expect(kept).toBeGreaterThanOrEqual(100_000);
    expect(kept).toBeLessThan(big.length);
    expect(existsSync(path.join(layout.imageDir, '00020000.png'))).toBe(false);

    fake.slow.clear();
    const second = await runCli(pullArgs, env);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(
      /^6 file\(s\) of EtaYang10th\/Open-M3-Bench at main \(commit c0ffee0+1\): \d already present, \d downloaded, 1 resumed; lock file /,
    );
    const blob = fake.cdn.requestsTo(`/blobs/${sha256Of(big)}`);
    expect(blob.at(-1)?.headers.range).toBe(`bytes=${kept}-`);
    expect(sha256Of(readFileSync(path.join(layout.imageDir, '00020000.png')))).toBe(sha256Of(big));
    expect(existsSync(part)).toBe(false);
    expect(fake.cdn.requests.every((request) => request.headers.authorization === undefined)).toBe(true);
    expect(fake.hub.requests.every((request) => request.headers.authorization === `Bearer ${token}`)).toBe(true);
    expect(`${killed.stdout}${killed.stderr}${second.stdout}${second.stderr}`).not.toContain(token);

    const verified = await runCli([
      'verify',
      '--tasks',
      path.join(layout.jsonDir, 'tasks_fuzzy.json'),
      '--gt',
      path.join(layout.jsonDir, 'test_mcp_GT.json'),
      '--image-dir',
      layout.imageDir,
      '--lock',
      layout.lockFile,
      '--allow-missing-images',
    ]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain(
      'named by the task files: 208; ok: 2; missing: 205; typed differently from their name: 1; not images: 0; files no task names: 1',
    );
    expect(verified.stdout).toContain('mistyped: images/00010002.png (bytes say image/jpeg)');
    expect(verified.stdout).toContain("images/000400002.png (00040002.png is there: the task file's image name looks mistyped)");
    expect(verified.stdout).toMatch(new RegExp(`Lock file .*: EtaYang10th/Open-M3-Bench at main \\(commit ${commit}\\); 6 file\\(s\\), 6 match their sha256`));
  }, 300_000);
});
