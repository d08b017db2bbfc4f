// Where each file of the published dataset lands. The reference's task files name images
// `images/<id>.png` (or `./images/...`) relative to the repository, and `m3 run` searches the
// repository root among its image folders (src/runner/workspace.ts, resolveTaskImages), so the
// dataset's `images/` folder goes to `<repo>/images/` by default and runs find it unchanged.
// JSON files (at the top level or under `json/`) go to `json/`; anything else (README, git
// attributes) is not task data and is skipped.
import path from 'node:path';
import { fromRepo } from '../config/paths.js';
import { DatasetError } from './dataset-error.js';
import type { HubFile } from './hub-client.js';

export const defaultDatasetRepo = 'EtaYang10th/Open-M3-Bench';
export const defaultJsonDir = fromRepo('json');
export const defaultImageDir = fromRepo('images');
export const lockFileName = 'm3bench-dataset.lock.json';

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

function placeOne(file: HubFile, layout: DatasetLayout): PlannedFile | string {
  if (!isSafe(file.path)) return 'unsafe path (absolute, empty or ".." segment)';
  const [top, ...rest] = file.path.split('/');
  if (top === 'images' && rest.length > 0) return { file, kind: 'image', target: path.join(layout.imageDir, ...rest) };
  if (!file.path.endsWith('.json')) return 'not task data (only images/ and JSON files are pulled)';
  if (top === 'json' && rest.length > 0) return { file, kind: 'json', target: path.join(layout.jsonDir, ...rest) };
  if (rest.length === 0) return { file, kind: 'json', target: path.join(layout.jsonDir, file.path) };
  return 'a JSON file outside json/ and the top level';
}

/** Decides the target of every listed file; two files for one target are refused. */
export function planPull(files: readonly HubFile[], layout: DatasetLayout): PullPlan {
  const plan: PullPlan = { files: [], skipped: [] };
  const byTarget = new Map<string, string>();
  for (const file of files) {
    const placed = placeOne(file, layout);
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
