// `m3 dataset pull|verify`: the original M3-Bench dataset (Hugging Face `EtaYang10th/Open-M3-Bench`)
// onto disk, and a check of what is there. Progress goes to stderr, reports to stdout.
// Exit codes: verify exits 1 when the check fails; pull failures (offline, HTTP, content) exit 2.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { loadEnvironment } from '../../config/env-file.js';
import { ConfigError, M3Error } from '../../errors/index.js';
import {
  DatasetError,
  defaultDatasetRepo,
  defaultImageDir,
  defaultJsonDir,
  formatVerifyReport,
  lockFileName,
  originalTaskFiles,
  pullDataset,
  runImageDirFor,
  verifyDataset,
  type PullEvent,
} from '../../dataset/index.js';
import { createTransferProgress } from '../../log/progress.js';
import { redactText, registerSecret } from '../../log/redact.js';
import { positiveInteger } from '../option-parsers.js';
import { sum } from '../../core/number-format.js';

interface PullFlags {
  repo: string;
  revision: string;
  dest: string;
  imageDir: string;
  lock?: string;
  concurrency: number;
}

interface VerifyFlags {
  tasks: string;
  gt: string;
  imageDir: string;
  lock?: string;
  allowMissingImages?: boolean;
  json?: boolean;
}

function kilobytes(bytes: number): string {
  return bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1000))} kB`;
}

/** Names the offline route only as it exists in this build of `m3 run`. */
function placeholderHint(program: Command): string {
  const run = program.commands.find((command) => command.name() === 'run');
  if (run?.options.some((option) => option.long === '--placeholder-images')) {
    return 'to run the original task set without it use `m3 run --placeholder-images` (a labelled pipeline check)';
  }
  return 'running the original task set without it needs the planned `m3 run --placeholder-images` (a labelled pipeline check), which this build does not have yet';
}

function progressHandler(): { onEvent: (event: PullEvent) => void; stop: () => void } {
  const progress = createTransferProgress('dataset');
  const inflight = new Map<string, number>();
  const state = { files: 0, filesTotal: 0, finished: 0, bytesTotal: 0 };
  const snapshot = () => ({
    files: state.files,
    filesTotal: state.filesTotal,
    bytes: state.finished + sum(inflight.values()),
    bytesTotal: state.bytesTotal,
  });
  return {
    onEvent(event) {
      if (event.type === 'planned') {
        Object.assign(state, { filesTotal: event.files, bytesTotal: event.bytes });
        progress.update(
          snapshot(),
          `${event.files} file(s) to check (${kilobytes(event.bytes)}), ${event.skipped} skipped${event.commit ? `, commit ${event.commit}` : ''}`,
        );
      } else if (event.type === 'bytes') {
        inflight.set(event.path, (inflight.get(event.path) ?? 0) + event.bytes);
        progress.update(snapshot());
      } else {
        inflight.delete(event.outcome.path);
        state.files = event.done;
        state.finished += event.outcome.bytes;
        const detail = event.outcome.action === 'failed' ? (event.outcome.error ?? 'failed') : kilobytes(event.outcome.bytes);
        progress.update(snapshot(), `${event.outcome.action.padEnd(10)} ${event.outcome.path} (${detail})`);
      }
    },
    stop: () => progress.stop(),
  };
}

function nextSteps(flags: PullFlags, missingTaskFiles: string[], lockFile: string): string[] {
  const lines: string[] = [];
  if (missingTaskFiles.length > 0) {
    lines.push(
      `the dataset has no ${missingTaskFiles.join(', ')}: they are in the history of the reference repository (https://github.com/EtaYang10th/Open-M3-Bench); in a clone, ` +
        `\`git show f5d6f8d:json/${originalTaskFiles.gt} > ${path.join(flags.dest, originalTaskFiles.gt)}\` and \`git show 9bd5452:json/${originalTaskFiles.tasks} > ${path.join(flags.dest, originalTaskFiles.tasks)}\``,
    );
  }
  const imageDir = runImageDirFor(flags.imageDir);
  if (imageDir.problem) lines.push(`warning: ${imageDir.problem}`);
  const runFlag = imageDir.flag ? ` --image-dir ${imageDir.flag}` : '';
  lines.push(
    `check it with \`m3 dataset verify --lock ${lockFile}${flags.imageDir === defaultImageDir ? '' : ` --image-dir ${flags.imageDir}`}\`; run it with \`m3 run --tasks ${path.join(flags.dest, originalTaskFiles.tasks)} --gt ${path.join(flags.dest, originalTaskFiles.gt)}${runFlag} ...\``,
  );
  return lines;
}

function endpointFrom(value: string | undefined): string {
  const endpoint = value?.trim() || 'https://huggingface.co';
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol))
    throw new ConfigError(`HF_ENDPOINT "${redactText(endpoint)}" is not an http(s) URL; expected e.g. https://huggingface.co or a mirror's address`);
  if (url.username || url.password) {
    // Named without the password: a user:password@ part would otherwise reach the error output.
    throw new ConfigError(
      `HF_ENDPOINT carries credentials (user${url.password ? ':password' : ''}@${url.host}); m3 does not send URL credentials: set HF_ENDPOINT to ${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname} and put the access token in HF_TOKEN`,
    );
  }
  return endpoint;
}

async function runPull(program: Command, flags: PullFlags): Promise<void> {
  if (!/^[\w.-]+\/[\w.-]+$/.test(flags.repo)) throw new ConfigError(`--repo "${flags.repo}" must be "owner/name", e.g. ${defaultDatasetRepo}`);
  const env = loadEnvironment();
  const endpoint = endpointFrom(env.HF_ENDPOINT);
  const token = env.HF_TOKEN?.trim() || undefined;
  registerSecret(token);
  const progress = progressHandler();
  try {
    const result = await pullDataset({
      repo: flags.repo,
      revision: flags.revision,
      endpoint,
      ...(token ? { token } : {}),
      layout: { jsonDir: flags.dest, imageDir: flags.imageDir },
      ...(flags.lock ? { lockFile: flags.lock } : {}),
      concurrency: flags.concurrency,
      onEvent: progress.onEvent,
    });
    progress.stop();
    const count = (action: string) => result.files.filter((file) => file.action === action).length;
    process.stdout.write(
      `${result.files.length} file(s) of ${flags.repo} at ${flags.revision}${result.commit ? ` (commit ${result.commit})` : ''}: ` +
        `${count('present')} already present, ${count('downloaded')} downloaded, ${count('resumed')} resumed; lock file ${result.lockFile}\n`,
    );
    for (const line of nextSteps(flags, result.missingTaskFiles, result.lockFile)) process.stderr.write(`${line}\n`);
  } catch (error) {
    progress.stop();
    if (!(error instanceof M3Error)) throw error;
    const advice = error instanceof DatasetError && error.kind === 'unreachable' ? `; ${placeholderHint(program)}` : '';
    process.stderr.write(`m3: ${redactText(error.message)}${advice}\n`);
    process.exitCode = 2;
  }
}

async function runVerify(flags: VerifyFlags): Promise<void> {
  const tasksFile = path.resolve(flags.tasks);
  const gtFile = path.resolve(flags.gt);
  for (const file of [tasksFile, gtFile]) {
    if (!existsSync(file)) {
      throw new ConfigError(
        `${file} not found: run \`m3 dataset pull\`, or point --tasks and --gt at a copy of the original files (e.g. ../shared/data/m3bench/)`,
      );
    }
  }
  const report = await verifyDataset({
    tasksFile,
    gtFile,
    imageDir: path.resolve(flags.imageDir),
    lockFile: path.resolve(flags.lock ?? path.join(defaultJsonDir, lockFileName)),
    allowMissingImages: flags.allowMissingImages ?? false,
  });
  process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatVerifyReport(report)}\n`);
  if (!report.passed) process.exitCode = 1;
}

export function registerDatasetCommands(program: Command): void {
  const dataset = program.command('dataset').description(`the original M3-Bench dataset (Hugging Face ${defaultDatasetRepo}): pull it, verify it`);

  dataset
    .command('pull')
    .description(
      'download the dataset (task images, and task/GT JSON files when the dataset has them) with resume, content checks and a lock file; honours HF_ENDPOINT and HF_TOKEN',
    )
    .option('--repo <owner/name>', 'Hugging Face dataset', defaultDatasetRepo)
    .option('--revision <rev>', 'branch, tag or commit', 'main')
    .option('--dest <dir>', 'folder for the JSON files and the lock file', defaultJsonDir)
    .option('--image-dir <dir>', 'folder for the images (the default is where `m3 run` finds "images/<id>.png")', defaultImageDir)
    .option('--lock <file>', `lock file (default: <dest>/${lockFileName})`)
    .option('--concurrency <n>', 'downloads at the same time', positiveInteger, 4)
    .action((flags: PullFlags) =>
      runPull(program, {
        ...flags,
        dest: path.resolve(flags.dest),
        imageDir: path.resolve(flags.imageDir),
        ...(flags.lock ? { lock: path.resolve(flags.lock) } : {}),
      }),
    );

  dataset
    .command('verify')
    .description(
      'check the task and GT files, the images they name (present, typed by their bytes) and the lock file; prints the STATS.md counts (exit 1 on failure)',
    )
    .option('--tasks <file>', 'fuzzy task file', path.join(defaultJsonDir, originalTaskFiles.tasks))
    .option('--gt <file>', 'ground-truth file', path.join(defaultJsonDir, originalTaskFiles.gt))
    .option('--image-dir <dir>', 'folder holding the images ("images/<name>" paths resolve inside it)', defaultImageDir)
    .option('--lock <file>', `lock file written by \`m3 dataset pull\` (default: json/${lockFileName})`)
    .option('--allow-missing-images', 'report missing images without failing (checks the task files alone)')
    .option('--json', 'print the report as JSON')
    .action((flags: VerifyFlags) => runVerify(flags));
}
