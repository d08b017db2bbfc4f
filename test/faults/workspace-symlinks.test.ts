// Symlinks planted in a task's workspace: paper_search's download folder (`save_path`) and the
// file arguments every server maps into a task's workspace are checked after links are followed,
// against that task's own workspace, so a `downloads -> /outside` link or a `peer -> ../TB` link
// carries no write out of it; and a `paper_id` of `../../x` stays one segment of arXiv's /pdf/ path.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadFolder } from '../../servers/paper-search/pdf-files.js';
import { pathPart } from '../../servers/paper-search/upstreams.js';
import { resolveAllowedPath } from '../../servers/shared/allowed-roots.js';
import { resolveInputArgument, resolveOutputArgument } from '../../servers/shared/task-paths.js';
import { CALL_CONTEXT_META_KEY } from '../../src/core/tool-result-contract.js';

let root: string;
let outside: string;
let previousRoots: string | undefined;
const extraFor = (taskId: string) => ({ _meta: { [CALL_CONTEXT_META_KEY]: { taskId, runId: 'run-s', workspace: path.join(root, 'runs', 'run-s', taskId) } } });

beforeAll(() => {
  // The workspaces' root is an allowed root (as M3_ALLOWED_ROOTS makes it for a run's folder); `outside` is not.
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'm3-symlink-root-')));
  outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'm3-symlink-outside-')));
  previousRoots = process.env.M3_ALLOWED_ROOTS;
  process.env.M3_ALLOWED_ROOTS = root;
  for (const task of ['TA', 'TB']) mkdirSync(path.join(root, 'runs', 'run-s', task), { recursive: true });
});

afterAll(() => {
  if (previousRoots === undefined) delete process.env.M3_ALLOWED_ROOTS;
  else process.env.M3_ALLOWED_ROOTS = previousRoots;
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('symlinks planted in a task workspace', () => {
  it('paper_search refuses a save_path whose link leads out of the workspace, and creates nothing there', () => {
    const workspace = path.join(root, 'runs', 'run-s', 'TA');
    symlinkSync(outside, path.join(workspace, 'downloads'));
    expect(() => downloadFolder('./downloads', extraFor('TA'))).toThrow(/save_path "\.\/downloads" leaves the task workspace/);
    expect(() => downloadFolder('./downloads/sub/deeper', extraFor('TA'))).toThrow(/leaves the task workspace|outside the allowed folders/);
    expect(existsSync(path.join(outside, 'sub'))).toBe(false);
    // A plain folder inside the workspace still works.
    expect(downloadFolder('./papers', extraFor('TA'))).toBe(path.join(workspace, 'papers'));
  });

  it("a mapped path through `peer -> ../TB` is refused: task TA cannot write or read in TB's workspace", () => {
    const ta = path.join(root, 'runs', 'run-s', 'TA');
    symlinkSync(path.join('..', 'TB'), path.join(ta, 'peer'));
    expect(() => resolveOutputArgument('peer/stolen.xlsx', extraFor('TA'), resolveAllowedPath)).toThrow(
      `path "peer/stolen.xlsx" leaves the task's workspace through a symbolic link`,
    );
    expect(() => resolveOutputArgument('./media/peer/x.png', extraFor('TA'), resolveAllowedPath)).toThrow(/through a symbolic link/);
    // Reading falls back to the literal path (confined to the allowed roots), never through the link.
    const read = (() => {
      try {
        return resolveInputArgument('peer/secret.txt', extraFor('TA'));
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(read).not.toBe(path.join(root, 'runs', 'run-s', 'TB', 'secret.txt'));
    // TA's own files are unaffected.
    expect(resolveOutputArgument('./media/out.png', extraFor('TA'), resolveAllowedPath)).toBe(path.join(ta, 'out.png'));
  });

  it('a paper_id of ../../x stays one segment of the /pdf/ path; old-style ids keep their slash', () => {
    const url = (id: string) => new URL(`https://arxiv.example/pdf/${pathPart(id)}.pdf`).pathname;
    expect(url('../../x')).toBe('/pdf/..%2F..%2Fx.pdf');
    expect(url('a/../../../etc')).toMatch(/^\/pdf\/[^/]+$/);
    expect(url('hep-th/9901001')).toBe('/pdf/hep-th/9901001.pdf');
    expect(url('2304.02365v1')).toBe('/pdf/2304.02365v1.pdf');
    expect(() => pathPart('..')).toThrow('".." is not a paper id');
  });
});

describe('a symlink planted at a download name', () => {
  it('is replaced by the downloaded file, not followed', async () => {
    const { saveDownload } = await import('../../servers/shared/download.js');
    const workspace = path.join(root, 'runs', 'run-s', 'TC');
    mkdirSync(workspace, { recursive: true });
    const victim = path.join(outside, 'victim.pdf');
    writeFileSync(victim, 'keep me');
    symlinkSync(victim, path.join(workspace, '2304.02365v1.pdf'));
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const saved = await saveDownload(workspace, '2304.02365v1.pdf', pdf, ['application/pdf']);
    expect(saved.file).toBe(path.join(workspace, '2304.02365v1.pdf'));
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(lstatSync(saved.file).isSymbolicLink()).toBe(false);
    expect(readFileSync(saved.file).equals(pdf)).toBe(true);
  });
});
