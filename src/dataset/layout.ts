// Where each file of the published dataset lands. The reference's task files name images
// `images/<id>.png` (or `./images/...`) relative to the repository, and `m3 run` searches the
// repository root among its image folders (src/runner/workspace.ts, resolveTaskImages), so the
// dataset's `images/` folder goes to `<repo>/images/` by default and runs find it unchanged.
// The dataset's own task files (originalTaskFiles, at the top level or under `json/`) go to
// `json/`; any other JSON file goes to `json/dataset-extra/` (a folder of its own, so a listed
// name can never land on the bundled suite or on the lock file); anything else (README, git
// attributes) is not task data and is skipped. Temp files live in `.m3bench-partial/` under each
// destination, named by a hash of the dataset path, and a listed path with that folder name in it
// is refused, so no listed file can be a temp file of another.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fromRepo } from '../config/paths.js';
import { DatasetError } from './dataset-error.js';
import type { HubFile } from './hub-client.js';

export const defaultDatasetRepo = 'EtaYang10th/Open-M3-Bench';
export const defaultJsonDir = fromRepo('json');
export const defaultImageDir = fromRepo('images');
export const lockFileName = 'm3bench-dataset.lock.json';
/** Where JSON files other than the dataset's own task files are placed, below the JSON folder. */
const extraJsonFolder = 'dataset-extra';
/** Temp files and the pull lock, below each destination folder; no listed path may use the name. */
export const partialFolder = '.m3bench-partial';

/** The reference's own names for the fuzzy task file and the ground truth. */
export const originalTaskFiles = { tasks: 'tasks_fuzzy.json', gt: 'test_mcp_GT.json' } as const;

export interface DatasetLayout {
  jsonDir: string;
  imageDir: string;
}

export interface PlannedFile {
  file: HubFile;
  kind: 'json' | 'image';
  target: string;
}

export interface PullPlan {
  files: PlannedFile[];
  skipped: Array<{ path: string; reason: string }>;
}

function isSafe(repoPath: string): boolean {
  const segments = repoPath.split('/');
  return !repoPath.includes('\\') && !path.isAbsolute(repoPath) && segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

const ownJsonNames: ReadonlySet<string> = new Set(Object.values(originalTaskFiles));

function placeJson(file: HubFile, top: string | undefined, rest: string[], layout: DatasetLayout): PlannedFile | string {
  const below = top === 'json' && rest.length > 0 ? rest : rest.length === 0 && top ? [top] : undefined;
  if (!below) return 'a JSON file outside json/ and the top level';
  if (below.length === 1 && below[0] && ownJsonNames.has(below[0])) return { file, kind: 'json', target: path.join(layout.jsonDir, below[0]) };
  return { file, kind: 'json', target: path.join(layout.jsonDir, extraJsonFolder, ...below) };
}

function placeOne(file: HubFile, layout: DatasetLayout): PlannedFile | string {
  if (!isSafe(file.path)) return 'unsafe path (absolute, empty or ".." segment)';
  if (file.path.split('/').includes(partialFolder)) return `a path through "${partialFolder}", the name pull keeps for its temp files`;
  const [top, ...rest] = file.path.split('/');
  if (top === 'images' && rest.length > 0) return { file, kind: 'image', target: path.join(layout.imageDir, ...rest) };
  if (!file.path.endsWith('.json')) return 'not task data (only images/ and JSON files are pulled)';
  return placeJson(file, top, rest, layout);
}

/** The resumable temp file of a planned file: in its destination's partial folder, named by a hash of its dataset path. */
export function partFileFor(planned: PlannedFile, layout: DatasetLayout): string {
  const root = planned.kind === 'image' ? layout.imageDir : layout.jsonDir;
  return path.join(root, partialFolder, `${createHash('sha256').update(planned.file.path).digest('hex').slice(0, 40)}.part`);
}

/** Decides the target of every listed file; two files for one target are refused, and none may land on the lock file. */
export function planPull(files: readonly HubFile[], layout: DatasetLayout, lockFile?: string): PullPlan {
  const plan: PullPlan = { files: [], skipped: [] };
  const byTarget = new Map<string, string>();
  for (const file of files) {
    let placed = placeOne(file, layout);
    if (typeof placed !== 'string' && lockFile && path.resolve(placed.target) === path.resolve(lockFile)) placed = 'it would land on the lock file';
    if (typeof placed === 'string') {
      plan.skipped.push({ path: file.path, reason: placed });
      continue;
    }
    const other = byTarget.get(placed.target);
    if (other) throw new DatasetError('layout', `dataset files "${other}" and "${file.path}" would both land at ${placed.target}`);
    byTarget.set(placed.target, file.path);
    plan.files.push(placed);
  }
  return plan;
}

/**
 * The `--image-dir` that `m3 run` needs so the task files' `images/<name>` paths resolve to
 * files in `imageDir`: none for the default, the parent when the folder is called `images`.
 */
export function runImageDirFor(imageDir: string): { flag?: string; problem?: string } {
  const resolved = path.resolve(imageDir);
  if (resolved === defaultImageDir) return {};
  if (path.basename(resolved) === 'images') return { flag: path.dirname(resolved) };
  return { problem: `the task files name images as "images/<id>.png", so m3 run finds them only in a folder called "images"; ${resolved} is not` };
}
