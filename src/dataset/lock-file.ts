// The record of a dataset pull (json/m3bench-dataset.lock.json): which revision, and for every
// file its dataset path, where it was placed (relative to the lock file, so a moved checkout
// still verifies), its size and sha256, which upstream hash confirmed it, and when. Later runs
// check the files on disk against it without any network.
import { existsSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { sha256File } from '../assets/transfer.js';
import { formatIssues } from '../config/zod-issues.js';
import { parseJsonText } from '../tasks/load-json.js';
import { writeJsonAtomic } from '../tasks/write-json.js';
import { DatasetError } from './dataset-error.js';

const lockEntrySchema = z
  .object({
    path: z.string().min(1),
    file: z.string().min(1),
    size: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 as 64 lower-case hex digits'),
    /** What the upstream said the content is, that the bytes were checked against. */
    checkedAgainst: z.enum(['lfs-sha256', 'git-blob', 'etag-sha256', 'nothing']),
    revision: z.string().min(1),
    time: z.iso.datetime(),
  })
  .strict();

const lockSchema = z
  .object({
    version: z.literal(1),
    repo: z.string().min(1),
    endpoint: z.string().min(1),
    /** The revision asked for (a branch, tag or commit). */
    revision: z.string().min(1),
    /** The commit it pointed at, when the hub said. */
    commit: z.string().optional(),
    time: z.iso.datetime(),
    files: z.array(lockEntrySchema),
  })
  .strict();

export type LockEntry = z.output<typeof lockEntrySchema>;
export type DatasetLock = z.output<typeof lockSchema>;

export function loadLockFile(file: string): DatasetLock | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = lockSchema.safeParse(parseJsonText(readFileSync(file, 'utf8'), file));
  if (!parsed.success) {
    throw new DatasetError('lock', `${formatIssues(file, parsed.error.issues)}\n(delete it and run \`m3 dataset pull\` again to rebuild it)`);
  }
  return parsed.data;
}

export function writeLockFile(file: string, lock: DatasetLock): void {
  writeJsonAtomic(file, lockSchema.parse(lock));
}

/** The path stored for `target`: relative to the lock file's folder, with forward slashes. */
export function lockRelative(lockFile: string, target: string): string {
  return path
    .relative(path.dirname(path.resolve(lockFile)), path.resolve(target))
    .split(path.sep)
    .join('/');
}

function lockTarget(lockFile: string, entry: LockEntry): string {
  return path.resolve(path.dirname(path.resolve(lockFile)), entry.file);
}

type LockCheckStatus = 'ok' | 'missing' | 'mismatch';

export interface LockCheck {
  path: string;
  file: string;
  status: LockCheckStatus;
  detail?: string;
}

/** Checks every file the lock names: present, same size, same sha256. */
export async function checkLockedFiles(lockFile: string, lock: DatasetLock): Promise<LockCheck[]> {
  const checks: LockCheck[] = [];
  for (const entry of lock.files) {
    const file = lockTarget(lockFile, entry);
    const base = { path: entry.path, file };
    if (!existsSync(file)) {
      checks.push({ ...base, status: 'missing' });
      continue;
    }
    const size = (await stat(file)).size;
    if (size !== entry.size) {
      checks.push({ ...base, status: 'mismatch', detail: `size ${size} bytes, the lock says ${entry.size}` });
      continue;
    }
    const sha256 = await sha256File(file);
    checks.push(
      sha256 === entry.sha256 ? { ...base, status: 'ok' } : { ...base, status: 'mismatch', detail: `sha256 ${sha256}, the lock says ${entry.sha256}` },
    );
  }
  return checks;
}
