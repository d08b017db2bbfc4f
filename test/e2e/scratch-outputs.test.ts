// `m3 tasks verify` and `m3 servers check --smoke` write the files their tool calls make into a
// temp folder (or the folder named with --workspace-dir), never under media/ or another path of
// the repository: a task whose ground truth writes `./media/<name>.xlsx` is verified, a smoke
// downloads a photo; neither file is anywhere under media/ (ignored folders included), and
// `git status` of media/ and json/ is what it was. The commands run in this process
// (test/support/m3-in-process.ts): the files they leave are the point, not the process. The
// excel and linkimage servers are real children, from dist/ when it is fresh
// (test/support/built-entry.ts): through tsx each of the three starts transpiled its module graph.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeEntryArgs } from '../support/built-entry.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { repoRoot } from '../support/shared-assets.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-scratch-outputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const outputName = `m3-verify-${path.basename(dir)}.xlsx`;
const gtFile = path.join(dir, 'gt.json');
const tasksFile = path.join(dir, 'tasks.json');
const excelConfig = path.join(dir, 'excel.json');
const linkimageConfig = path.join(dir, 'linkimage.json');
const server = (name: string) => ({ command: 'node', args: nodeEntryArgs(`servers/${name}/index.ts`), env: {} });
/**
 * media/ and json/ as git sees them, untracked files included. Ignored files are left out: other
 * test files running at the same time may write there (test/tasks/verify-suite.test.ts replays into
 * media/outputs by design), so this file checks its own unique names under media/ instead.
 */
const trackedAreas = () => execFileSync('git', ['status', '--porcelain', '--untracked-files=all', '--', 'media', 'json'], { cwd: repoRoot }).toString();
/** Every path under media/ (ignored ones too) whose name contains `name`. */
const underMedia = (name: string) =>
  readdirSync(path.join(repoRoot, 'media'), { recursive: true })
    .map(String)
    .filter((file) => file.includes(name));

writeFileSync(
  gtFile,
  JSON.stringify([
    {
      id: 'xlsx-verify-1',
      question: 'Write the numbers 1 and 2 into a new workbook.',
      steps: [
        { step: 1, calls: [{ name: 'excel/create_workbook', arguments: { filepath: `./media/${outputName}`, sheet_name: 'Numbers' } }] },
        { step: 2, calls: [{ name: 'excel/write_data_to_excel', arguments: { filepath: `./media/${outputName}`, sheet_name: 'Numbers', data: [[1, 2]] } }] },
      ],
      final_reply: 'Done: 1 and 2 are in the workbook.',
    },
  ]),
);
writeFileSync(tasksFile, JSON.stringify([{ id: 'xlsx-verify-1', question: 'Put 1 and 2 into a fresh spreadsheet.' }]));
writeFileSync(excelConfig, JSON.stringify({ servers: { excel: server('excel') } }));
writeFileSync(linkimageConfig, JSON.stringify({ servers: { 'linkimage-mcp': server('linkimage') } }));

describe('commands that call tools write outside the repository', { timeout: 300_000 }, () => {
  it('m3 tasks verify replays a task that writes ./media/x.xlsx into a temp folder, or into --workspace-dir', async () => {
    const before = trackedAreas();
    const verify = await runM3InProcess(['tasks', 'verify', '--gt', gtFile, '--tasks', tasksFile, '--config', excelConfig, '--json']);
    const report = JSON.parse(verify.stdout) as { tasks: Array<{ id: string; problems: string[] }> };
    expect(report.tasks.map((task) => task.id)).toEqual(['xlsx-verify-1']);
    expect(underMedia(outputName)).toEqual([]);
    expect(trackedAreas()).toBe(before);

    const kept = path.join(dir, 'workspaces');
    const again = await runM3InProcess(['tasks', 'verify', '--gt', gtFile, '--tasks', tasksFile, '--config', excelConfig, '--workspace-dir', kept, '--json']);
    expect(again.stdout).toContain('xlsx-verify-1');
    const written = readdirSync(path.join(kept, 'xlsx-verify-1'), { recursive: true }).map(String);
    expect(
      written.some((file) => file.endsWith(outputName)),
      written.join(', '),
    ).toBe(true);
    expect(trackedAreas()).toBe(before);
  });

  it('m3 servers check --smoke downloads its photo into a temp folder', async () => {
    const before = trackedAreas();
    const check = await runM3InProcess(['servers', 'check', '--config', linkimageConfig, '--smoke', '--offline', '--json', '--startup-timeout', '120']);
    expect(check.code, check.output).toBe(0);
    const rows = (JSON.parse(check.stdout) as { servers: Array<{ server: string; smoke?: { state: string; detail: string } }> }).servers;
    expect(rows.map((row) => [row.server, row.smoke?.state])).toEqual([['linkimage-mcp', 'passed']]);
    expect(rows[0]?.smoke?.detail).toMatch(/Downloaded 'Offline Photographer' photo successfully/);
    // The photo (saved as <photo id>.<ext>, the smoke's photo id 8Rk1DqL_Lkc) is nowhere under media/.
    expect(underMedia('8Rk1DqL_Lkc')).toEqual([]);
    expect(trackedAreas()).toBe(before);
  });
});
