// Where a task's image lives while the task runs, and where the files its tools write go
// (M3_WORKSPACE_MODE). A run with a run folder (every `m3 run`) gives each task its own
// workspace inside it, <run folder>/workspaces/<run id>/<task id>/, so nothing a run writes lands
// under media/ or any tracked file (tools map `media/x.xlsx` into the workspace):
//   dedup    – images already under media/ are used in place (read there); others are copied into
//              the task's workspace; the workspace (the files tools wrote) is kept with the run
//   isolated – the task's workspace gets its own copy of every image; removed after the task
//              unless M3_KEEP_WORKSPACE
//   legacy   – a fresh copy in media/ every time, `_1`, `_2` ... appended when the name is taken
//              (the reference's behaviour: it writes into media/)
// Without a run folder (library callers) dedup uses media/ and isolated media/runs/<run id>/<task id>/.
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
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
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}

function isInside(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
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
  /** The run's folder: per-task workspaces go under its workspaces/ (dedup and isolated modes). */
  runDir?: string;
}

const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_');

/** The task's own folder, or media/ itself for the modes that share it. */
function workspaceDir(request: WorkspaceRequest, mediaDir: string): string {
  if (request.mode === 'legacy') return mediaDir;
  if (request.runDir) return path.join(request.runDir, 'workspaces', safeName(request.runId), safeName(request.taskId));
  return request.mode === 'isolated' ? path.join(mediaDir, 'runs', request.runId, safeName(request.taskId)) : mediaDir;
}

export async function prepareWorkspace(request: WorkspaceRequest): Promise<TaskWorkspace> {
  const mediaDir = path.join(request.root, 'media');
  const dir = workspaceDir(request, mediaDir);
  // A task of its own folder copies what it needs into it; dedup without a run folder shares media/.
  const ownFolder = dir !== mediaDir;
  // Checked first: a recursive mkdir of an existing folder (media/ for every dedup task) costs a
  // thread-pool round trip per task, about 1.5 ms of host time per task in bench:memory's profile.
  if (!existsSync(dir)) await mkdir(dir, { recursive: true });
  const images: string[] = [];
  for (const source of request.sources) {
    if (!existsSync(source)) throw new MediaError(`task ${request.taskId}: image not found: ${source}`);
    if (request.mode === 'dedup' && isInside(source, mediaDir)) {
      images.push(source);
      continue;
    }
    const target = ownFolder
      ? path.join(dir, path.basename(source))
      : await freeName(dir, path.basename(source), request.mode === 'dedup' ? await digest(source) : undefined);
    if (!existsSync(target) || ownFolder) await copyFile(source, target);
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

export interface ResolvedTaskImages {
  /** Absolute paths of regular files inside one of the search folders. */
  found: string[];
  /** Entries that name no file in any search folder. */
  missing: string[];
  /** Entries refused before anything was read: they point outside every search folder. */
  outside: string[];
}

function isRegularFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Resolves a task's `image` field, confined to the search folders (the image dir, the task
 * file's folder, the repo): a relative entry is looked up in each folder and only counts there
 * when it stays inside that folder; an absolute entry must lie inside one of them. So a task
 * file cannot make the runner read `/etc/passwd` or `../../secret`. The check is on the path
 * as written (symlinks a dataset ships, e.g. a Hugging Face cache's blobs, keep working);
 * the bytes are type-checked before anything is copied (see run-task.ts).
 */
export function resolveTaskImages(image: string | string[] | undefined, searchDirs: readonly string[]): ResolvedTaskImages {
  const entries = image === undefined ? [] : Array.isArray(image) ? image : [image];
  const result: ResolvedTaskImages = { found: [], missing: [], outside: [] };
  for (const entry of entries.filter((value) => value.trim() !== '')) {
    const candidates = searchDirs
      .map((dir) => ({ dir: path.resolve(dir), file: path.resolve(dir, entry) }))
      .filter((candidate) => isInside(candidate.file, candidate.dir))
      .map((candidate) => candidate.file);
    const hit = candidates.find((candidate) => isRegularFile(candidate));
    if (hit) result.found.push(hit);
    else if (candidates.length === 0) result.outside.push(entry);
    else result.missing.push(entry);
  }
  return result;
}
