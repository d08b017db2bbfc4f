// `m3 dataset verify`: what is on disk. Loads the original task and GT files (the reference
// formats, src/tasks/load.ts), states their counts and oddities (counts.ts), checks every image
// they name (image-check.ts) and every file the lock records (lock-file.ts). No network.
// It fails on missing images (unless allowed), files that are not images, and files that
// differ from the lock; the data's own oddities are facts, reported, never failures.
import { loadFuzzyTasks, loadGroundTruth } from '../tasks/load.js';
import { countDataset, type DatasetCounts } from './counts.js';
import { checkImages, type ImageCheck, type ImageSummary } from './image-check.js';
import { checkLockedFiles, loadLockFile, type LockCheck } from './lock-file.js';

export interface DatasetVerifyOptions {
  tasksFile: string;
  gtFile: string;
  imageDir: string;
  lockFile: string;
  /** Missing images are reported but do not fail the check (task files checked on their own). */
  allowMissingImages?: boolean;
}

interface LockReport {
  file: string;
  present: boolean;
  repo?: string;
  revision?: string;
  commit?: string;
  checks: LockCheck[];
}

export interface DatasetVerifyReport {
  tasksFile: string;
  gtFile: string;
  imageDir: string;
  counts: DatasetCounts;
  images: ImageSummary;
  lock: LockReport;
  /** Why the check failed; empty when it passed. */
  failures: string[];
  passed: boolean;
}

export function imagesWith(checks: readonly ImageCheck[], status: ImageCheck['status']): ImageCheck[] {
  return checks.filter((check) => check.status === status);
}

async function lockReport(file: string): Promise<LockReport> {
  const lock = loadLockFile(file);
  if (!lock) return { file, present: false, checks: [] };
  return {
    file,
    present: true,
    repo: lock.repo,
    revision: lock.revision,
    ...(lock.commit ? { commit: lock.commit } : {}),
    checks: await checkLockedFiles(file, lock),
  };
}

function failuresOf(images: ImageSummary, lock: LockReport, allowMissingImages: boolean): string[] {
  const failures: string[] = [];
  const missing = imagesWith(images.checks, 'missing');
  if (missing.length > 0 && !allowMissingImages) failures.push(`${missing.length} of ${images.checks.length} image(s) missing`);
  const notImages = imagesWith(images.checks, 'not-image');
  if (notImages.length > 0) failures.push(`${notImages.length} file(s) named as images are not images`);
  const badLock = lock.checks.filter((check) => check.status !== 'ok');
  if (badLock.length > 0) failures.push(`${badLock.length} of ${lock.checks.length} file(s) differ from the lock file or are gone`);
  return failures;
}

export async function verifyDataset(options: DatasetVerifyOptions): Promise<DatasetVerifyReport> {
  const gt = loadGroundTruth(options.gtFile);
  const fuzzy = loadFuzzyTasks(options.tasksFile);
  const images = await checkImages(gt, fuzzy, options.imageDir);
  const lock = await lockReport(options.lockFile);
  const failures = failuresOf(images, lock, options.allowMissingImages ?? false);
  return {
    tasksFile: options.tasksFile,
    gtFile: options.gtFile,
    imageDir: options.imageDir,
    counts: countDataset(gt, fuzzy),
    images,
    lock,
    failures,
    passed: failures.length === 0,
  };
}
