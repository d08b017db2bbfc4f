import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareWorkspace, resolveTaskImages } from '../../src/runner/workspace.js';

function fixtureRoot() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'm3-ws-'));
  const outside = path.join(root, 'datasets', 'images');
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(outside, 'task.png'), 'image-a');
  return { root, source: path.join(outside, 'task.png') };
}

describe('task workspaces', () => {
  it('dedup copies an image into media once and reuses an identical copy', async () => {
    const { root, source } = fixtureRoot();
    const first = await prepareWorkspace({ mode: 'dedup', root, runId: 'r', taskId: 't', sources: [source], keep: true });
    const second = await prepareWorkspace({ mode: 'dedup', root, runId: 'r', taskId: 't', sources: [source], keep: true });
    expect(first.images).toEqual([path.join(root, 'media', 'task.png')]);
    expect(second.images).toEqual(first.images);
    expect(first.displayPaths).toEqual(['./media/task.png']);
    // Different bytes under the same name get a suffixed copy instead of overwriting.
    writeFileSync(source, 'image-b');
    const third = await prepareWorkspace({ mode: 'dedup', root, runId: 'r', taskId: 't', sources: [source], keep: true });
    expect(third.images).toEqual([path.join(root, 'media', 'task_1.png')]);
    expect(readFileSync(path.join(root, 'media', 'task.png'), 'utf8')).toBe('image-a');
  });

  it('dedup uses images already under media/ in place', async () => {
    const { root } = fixtureRoot();
    const inside = path.join(root, 'media', 'local', 'x.png');
    mkdirSync(path.dirname(inside), { recursive: true });
    writeFileSync(inside, 'x');
    const workspace = await prepareWorkspace({ mode: 'dedup', root, runId: 'r', taskId: 't', sources: [inside], keep: true });
    expect(workspace.displayPaths).toEqual(['./media/local/x.png']);
  });

  it('legacy copies every time; isolated gives each task its own folder and can clean it', async () => {
    const { root, source } = fixtureRoot();
    const a = await prepareWorkspace({ mode: 'legacy', root, runId: 'r', taskId: 't', sources: [source], keep: true });
    const b = await prepareWorkspace({ mode: 'legacy', root, runId: 'r', taskId: 't', sources: [source], keep: true });
    expect(a.images[0]).not.toBe(b.images[0]);
    const isolated = await prepareWorkspace({ mode: 'isolated', root, runId: 'run1', taskId: '00/1', sources: [source], keep: false });
    expect(isolated.dir).toBe(path.join(root, 'media', 'runs', 'run1', '00_1'));
    expect(isolated.displayPaths).toEqual(['./media/runs/run1/00_1/task.png']);
    await isolated.cleanup();
    expect(existsSync(isolated.dir)).toBe(false);
  });

  it('resolves task images against the search folders and reports missing ones', () => {
    const { root } = fixtureRoot();
    const result = resolveTaskImages(['images/task.png', 'images/absent.png'], [path.join(root, 'nowhere'), path.join(root, 'datasets')]);
    expect(result.found).toEqual([path.join(root, 'datasets', 'images', 'task.png')]);
    expect(result.missing).toEqual(['images/absent.png']);
  });
});
