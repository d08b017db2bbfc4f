// Where a task's image lives while the task runs (M3_WORKSPACE_MODE):
//   dedup    – images already under media/ are used in place; others are copied to media/ once
//              (an existing copy with the same bytes is reused)
//   isolated – each task gets media/runs/<run_id>/<task_id>/ with its own copy (no collisions
//              between concurrent tasks: reference bug 9)
//   legacy   – a fresh copy in media/ every time, `_1`, `_2` ... appended when the name is taken
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { MediaError } from '../errors/index.js';

export type WorkspaceMode = 'dedup' | 'isolated' | 'legacy';

export interface TaskWorkspace {
  /** Folder outputs of this task should go to. */
  dir: string;
  /** Absolute paths of the task's images inside the workspace. */
  images: string[];
  /** The same paths as the model and tools see them (relative to the repo root, `./media/...`). */
  displayPaths: string[];
  cleanup(): Promise<void>;
}

async function digest(file: string): Promise<string> {
  return createHash('sha256').update(await readFile(file)).digest('hex');
}

function isInside(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return !relative.startsWith('..') && !path.isAbsolute(relative);
}

async function freeName(dir: string, base: string, reuseIfSame?: string): Promise<string> {
  const ext = path.extname(base);
  const stem = path.basename(base, ext);
  for (let n = 0; ; n += 1) {
    const candidate = path.join(dir, n === 0 ? base : `${stem}_${n}${ext}`);
    if (!existsSync(candidate)) return candidate;
    if (reuseIfSame && (await digest(candidate)) === reuseIfSame) return candidate;
  }
}

export interface WorkspaceRequest {
  mode: WorkspaceMode;
  root: string;
  runId: string;
  taskId: string;
  sources: string[];
  keep: boolean;
}

export async function prepareWorkspace(request: WorkspaceRequest): Promise<TaskWorkspace> {
  const mediaDir = path.join(request.root, 'media');
  const dir = request.mode === 'isolated' ? path.join(mediaDir, 'runs', request.runId, request.taskId.replace(/[^A-Za-z0-9._-]/g, '_')) : mediaDir;
  await mkdir(dir, { recursive: true });
  const images: string[] = [];
  for (const source of request.sources) {
    if (!existsSync(source)) throw new MediaError(`task ${request.taskId}: image not found: ${source}`);
    if (request.mode === 'dedup' && isInside(source, mediaDir)) {
      images.push(source);
      continue;
    }
    const target =
      request.mode === 'isolated'
        ? path.join(dir, path.basename(source))
        : await freeName(dir, path.basename(source), request.mode === 'dedup' ? await digest(source) : undefined);
    if (!existsSync(target)) await copyFile(source, target);
    else if (request.mode === 'isolated') await copyFile(source, target);
    images.push(target);
  }
  return {
    dir,
    images,
    displayPaths: images.map((file) => `./${path.relative(request.root, file).split(path.sep).join('/')}`),
    cleanup: async () => {
      if (request.mode === 'isolated' && !request.keep) {
        await rm(dir, { recursive: true, force: true });
        // The run folder goes too once its last task is cleaned (rmdir refuses a non-empty one).
        await rmdir(path.dirname(dir)).catch(() => undefined);
      }
    },
  };
}

/** Resolves a task's `image` field: absolute, or relative to the image dir, the task file's folder, or the repo. */
export function resolveTaskImages(image: string | string[] | undefined, searchDirs: readonly string[]): { found: string[]; missing: string[] } {
  const entries = image === undefined ? [] : Array.isArray(image) ? image : [image];
  const found: string[] = [];
  const missing: string[] = [];
  for (const entry of entries.filter((value) => value.trim() !== '')) {
    const candidates = path.isAbsolute(entry) ? [entry] : searchDirs.map((dir) => path.resolve(dir, entry));
    const hit = candidates.find((candidate) => existsSync(candidate));
    if (hit) found.push(hit);
    else missing.push(entry);
  }
  return { found, missing };
}
