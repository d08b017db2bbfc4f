// `m3 dataset pull`: the published M3-Bench dataset from the Hugging Face Hub onto disk. Pins the
// revision to one commit, lists its files, places images and JSON files (layout.ts), keeps the
// files already present with the right content, downloads the rest with resume and content
// checks (src/assets/http-download.ts), and records everything in the lock file. Every file is
// attempted even when one fails, so one run reports every problem; the lock lists what is good.
// Guards (docs/dataset.md): one pull per destination at a time (pull-lock.ts); a file already at
// a target that no earlier pull placed and whose content differs is never overwritten; temp files
// are named by layout.ts so no listed file can be one; `checkedAgainst` names only a check made.
import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ContentHasher, contentMismatch, type ContentDigest, type ExpectedContent } from '../assets/content-hash.js';
import { DownloadError, downloadVerified, networkReason } from '../assets/http-download.js';
import { DatasetError, unreachableError } from './dataset-error.js';
import { createHubClient, expectedFromHubHeaders, type HubClient, type HubFile, type ListingLimits } from './hub-client.js';
import { lockFileName, originalTaskFiles, partFileFor, planPull, type DatasetLayout, type PlannedFile, type PullPlan } from './layout.js';
import { acquirePullLock } from './pull-lock.js';
import { loadLockFile, lockRelative, writeLockFile, type DatasetLock, type LockEntry } from './lock-file.js';

export interface DatasetPullOptions {
  repo: string;
  revision: string;
  endpoint: string;
  token?: string;
  layout: DatasetLayout;
  /** Defaults to `<jsonDir>/m3bench-dataset.lock.json`. */
  lockFile?: string;
  /** Downloads at the same time (default 4). */
  concurrency?: number;
  fetch?: typeof fetch;
  onEvent?: (event: PullEvent) => void;
  /** Bounds on the hub's file listing (default hub-client.ts listingLimits). */
  listingLimits?: ListingLimits;
}

type FileAction = 'present' | 'downloaded' | 'resumed' | 'failed';

interface FileOutcome {
  path: string;
  target: string;
  action: FileAction;
  bytes: number;
  error?: string;
}

export type PullEvent =
  | { type: 'planned'; files: number; bytes: number; skipped: number; commit: string | undefined }
  | { type: 'bytes'; path: string; bytes: number }
  | { type: 'file'; outcome: FileOutcome; done: number; total: number };

export interface DatasetPullResult {
  commit: string | undefined;
  lockFile: string;
  files: FileOutcome[];
  skipped: Array<{ path: string; reason: string }>;
  /** Reference task files the dataset did not contain (see the README for where they are). */
  missingTaskFiles: string[];
}

/**
 * Thrown after every file was attempted; the lock file already lists the good ones.
 * @internal Exported for its tests.
 */
export class DatasetPullError extends DatasetError {
  readonly result: DatasetPullResult;
  constructor(result: DatasetPullResult) {
    const failed = result.files.filter((file) => file.action === 'failed');
    super(
      'download',
      `${failed.length} of ${result.files.length} dataset file(s) could not be pulled:\n  ${failed.map((file) => `${file.path}: ${file.error}`).join('\n  ')}\nRun the command again: partial downloads resume from their .part files.`,
    );
    this.result = result;
  }
}

/** Body cap for a file whose size neither the listing nor the hub's headers give. */
const maxUnlistedFileBytes = 512 * 1024 * 1024;

function expectedOf(file: HubFile): ExpectedContent {
  return {
    ...(file.sha256 ? { sha256: file.sha256 } : {}),
    ...(file.size !== undefined ? { bytes: file.size } : {}),
    ...(file.gitBlob ? { gitBlob: file.gitBlob } : {}),
  };
}

async function digestFile(file: string, bytes: number): Promise<ContentDigest> {
  // The size is known on disk, so the git blob id is computed even when the listing gave none.
  const hasher = new ContentHasher(bytes);
  await pipeline(createReadStream(file), hasher.sink());
  return hasher.digest();
}

/** A file already on disk counts when it matches the listing's hash, or, if none, the lock's. */
async function presentDigest(planned: PlannedFile, previous: LockEntry | undefined): Promise<ContentDigest | undefined> {
  if (!existsSync(planned.target)) return undefined;
  const expected = expectedOf(planned.file);
  const size = (await stat(planned.target)).size;
  if (expected.bytes !== undefined && size !== expected.bytes) return undefined;
  const digest = await digestFile(planned.target, size);
  if (expected.sha256 || expected.gitBlob) return contentMismatch(expected, digest) ? undefined : digest;
  return previous?.sha256 === digest.sha256 ? digest : undefined;
}

/** The upstream hash the placed bytes were compared with; `nothing` when there was none to compare. */
function checkedAgainst(file: HubFile, fromHeaders: ExpectedContent, digest: ContentDigest): LockEntry['checkedAgainst'] {
  if (file.sha256) return 'lfs-sha256';
  if (fromHeaders.sha256) return 'etag-sha256';
  const blob = file.gitBlob ?? fromHeaders.gitBlob;
  return blob !== undefined && digest.gitBlob === blob ? 'git-blob' : 'nothing';
}

/** A file at the target that no earlier pull placed (a tracked or hand-made file): never overwritten. */
function foreignFile(planned: PlannedFile, previous: LockEntry | undefined): string | undefined {
  if (previous || !existsSync(planned.target)) return undefined;
  return `${planned.target} already exists with other content and no earlier pull placed it; move it away (m3 dataset pull never overwrites a file it did not write)`;
}

interface FileContext {
  client: HubClient;
  options: DatasetPullOptions;
  revision: string;
  lockFile: string;
  previous: Map<string, LockEntry>;
  entries: LockEntry[];
  /** Set when a host could not be reached: no further files are started. */
  unreachable?: DatasetError;
}

async function pullOne(planned: PlannedFile, context: FileContext): Promise<FileOutcome> {
  const base = { path: planned.file.path, target: planned.target };
  const previous = context.previous.get(planned.file.path);
  const entry = (digest: ContentDigest, against: LockEntry['checkedAgainst'], keepTime: boolean): LockEntry => ({
    path: planned.file.path,
    file: lockRelative(context.lockFile, planned.target),
    size: digest.bytes,
    sha256: digest.sha256,
    checkedAgainst: against,
    revision: context.revision,
    time: keepTime && previous ? previous.time : new Date().toISOString(),
  });
  const present = await presentDigest(planned, previous);
  if (present) {
    const same = previous?.sha256 === present.sha256;
    context.entries.push(entry(present, same ? previous.checkedAgainst : checkedAgainst(planned.file, {}, present), same));
    return { ...base, action: 'present', bytes: present.bytes };
  }
  const foreign = foreignFile(planned, previous);
  if (foreign) return { ...base, action: 'failed', bytes: 0, error: foreign };
  let fromHeaders: ExpectedContent = {};
  try {
    const result = await downloadVerified({
      url: context.client.fileUrl(context.options.repo, context.revision, planned.file.path),
      target: planned.target,
      partFile: partFileFor(planned, context.options.layout),
      maxBytes: maxUnlistedFileBytes,
      expected: expectedOf(planned.file),
      expectedFromResponse: (headers) => (fromHeaders = expectedFromHubHeaders(headers)),
      resume: true,
      headersFor: context.client.headersFor,
      timeoutMs: 30 * 60_000,
      ...(context.options.fetch ? { fetch: context.options.fetch } : {}),
      onBytes: (bytes) => context.options.onEvent?.({ type: 'bytes', path: planned.file.path, bytes }),
    });
    context.entries.push(entry(result, checkedAgainst(planned.file, fromHeaders, result), false));
    return { ...base, action: result.resumedFrom > 0 ? 'resumed' : 'downloaded', bytes: result.bytes };
  } catch (error) {
    if (!(error instanceof DownloadError)) throw error;
    if (error.kind === 'unreachable') context.unreachable ??= unreachableError(new URL(error.url).host, networkReason(error.cause), error);
    return { ...base, action: 'failed', bytes: 0, error: error.message };
  }
}

async function pullAll(plan: PlannedFile[], context: FileContext): Promise<FileOutcome[]> {
  const outcomes: FileOutcome[] = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < plan.length && !context.unreachable) {
      const index = next;
      next += 1;
      const planned = plan[index] as PlannedFile;
      const outcome = await pullOne(planned, context);
      outcomes[index] = outcome;
      done += 1;
      context.options.onEvent?.({ type: 'file', outcome, done, total: plan.length });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(context.options.concurrency ?? 4, plan.length)) }, worker));
  return outcomes.filter(Boolean);
}

function endpointForLock(endpoint: string): string {
  const url = new URL(endpoint);
  url.username = '';
  url.password = '';
  return url.href.replace(/\/+$/, '');
}

export async function pullDataset(options: DatasetPullOptions): Promise<DatasetPullResult> {
  const lockFile = options.lockFile ?? path.join(options.layout.jsonDir, lockFileName);
  const client = createHubClient({
    endpoint: options.endpoint,
    ...(options.token ? { token: options.token } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.listingLimits ? { limits: options.listingLimits } : {}),
  });
  const commit = await client.revisionSha(options.repo, options.revision);
  const revision = commit ?? options.revision;
  const plan = planPull(await client.listFiles(options.repo, revision), options.layout, lockFile);
  // Taken once the listing is in: a pull that cannot reach the hub leaves nothing on disk.
  const release = acquirePullLock([options.layout.jsonDir, options.layout.imageDir, path.dirname(path.resolve(lockFile))]);
  try {
    return await pullPlanned(options, { client, lockFile, commit, revision, plan });
  } finally {
    release();
  }
}

interface Planned {
  client: HubClient;
  lockFile: string;
  commit: string | undefined;
  revision: string;
  plan: PullPlan;
}

async function pullPlanned(options: DatasetPullOptions, { client, lockFile, commit, revision, plan }: Planned): Promise<DatasetPullResult> {
  const bytes = plan.files.reduce((sum, planned) => sum + (planned.file.size ?? 0), 0);
  options.onEvent?.({ type: 'planned', files: plan.files.length, bytes, skipped: plan.skipped.length, commit });
  const previousLock = loadLockFile(lockFile);
  const context: FileContext = {
    client,
    options,
    revision,
    lockFile,
    previous: new Map(previousLock?.files.map((entry) => [entry.path, entry]) ?? []),
    entries: [],
  };
  const files = await pullAll(plan.files, context);
  const lock: DatasetLock = {
    version: 1,
    repo: options.repo,
    endpoint: endpointForLock(options.endpoint),
    revision: options.revision,
    ...(commit ? { commit } : {}),
    time: new Date().toISOString(),
    files: context.entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
  };
  writeLockFile(lockFile, lock);
  if (context.unreachable) throw context.unreachable;
  const pulledJson = new Set(plan.files.filter((planned) => planned.kind === 'json').map((planned) => path.basename(planned.target)));
  const missingTaskFiles = Object.values(originalTaskFiles).filter((name) => !pulledJson.has(name));
  const result: DatasetPullResult = { commit, lockFile, files, skipped: plan.skipped, missingTaskFiles };
  if (files.some((file) => file.action === 'failed')) throw new DatasetPullError(result);
  return result;
}
