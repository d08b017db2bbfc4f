// `m3 view`: the run viewer. Opens the run store read-only and serves the viewer until
// SIGINT/SIGTERM. The URL goes to stdout (one line, so scripts and tests can read it). A folder
// without a store yet (no run made there) gets an empty viewer, whose page says how to make a
// run, over an empty store in a temporary folder: nothing is written into the results folder.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../errors/index.js';
import { writeViewBundle } from '../../export/view-bundle.js';
import { startViewServer } from '../../view/index.js';
import { log } from '../../log/logger.js';
import { openStore, type Store } from '../../store/index.js';
import { wholeNumber } from '../option-parsers.js';
import { collect, waitForSignal } from '../serve-helpers.js';

interface ViewFlags {
  host: string;
  port: number;
  resultsDir: string;
  store?: string;
  allowHost: string[];
  export?: string;
  maxImagePx?: number;
}

/** The store to show: the folder's own, read-only; or, when there is none yet, an empty one in a temporary folder. */
function viewedStore(file: string): { store: Store; cleanup: () => void } {
  if (existsSync(file)) return { store: openStore(file, { readonly: true }), cleanup: () => undefined };
  const temporary = mkdtempSync(path.join(os.tmpdir(), 'm3-view-empty-'));
  log.warn(`view: no run store at ${path.relative(process.cwd(), file) || file} yet: showing an empty viewer (make a run with m3 run, then restart m3 view)`);
  return { store: openStore(path.join(temporary, 'm3bench.sqlite')), cleanup: () => rmSync(temporary, { recursive: true, force: true }) };
}

async function exportView(runId: string, target: string | undefined, flags: ViewFlags): Promise<void> {
  const resultsDir = path.resolve(flags.resultsDir);
  const written = await writeViewBundle({
    storeFile: flags.store ?? path.join(resultsDir, 'm3bench.sqlite'),
    resultsDir,
    runId,
    target: target ?? `${runId}.html`,
    ...(flags.maxImagePx !== undefined ? { maxImagePx: flags.maxImagePx } : {}),
  });
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
  process.stdout.write(
    `${written.file}: ${mib(written.bytes)} (bytes written), ${written.tasks} task page(s), ${written.images} image(s) inlined (${mib(written.imageBytes)})` +
      `${written.missingImages ? `, ${written.missingImages} image file(s) no longer there` : ''}; open it from file://, no server needed\n`,
  );
}

async function runView(target: string | undefined, flags: ViewFlags): Promise<void> {
  if (flags.export) return exportView(flags.export, target, flags);
  if (target) throw new ConfigError(`m3 view: ${target}: a file or folder is only taken with --export <run-id>`);
  const resultsDir = path.resolve(flags.resultsDir);
  const { store, cleanup } = viewedStore(path.resolve(flags.store ?? path.join(resultsDir, 'm3bench.sqlite')));
  try {
    const view = await startViewServer({ store, resultsDir, host: flags.host, port: flags.port, allowedHosts: flags.allowHost });
    if (flags.host !== '127.0.0.1' && flags.host !== 'localhost')
      log.warn(`view: listening on ${flags.host}: anyone who can reach this address can read your runs (there is no login)`);
    log.info(
      `view: run store ${path.relative(process.cwd(), store.file) || store.file}, evaluation outputs in ${path.relative(process.cwd(), resultsDir) || '.'}`,
    );
    process.stdout.write(`${view.url}\n`);
    const signal = await waitForSignal();
    log.info(`view: ${signal} received, shutting down`);
    await view.close();
  } finally {
    store.close();
    cleanup();
  }
}

export function registerViewCommand(program: Command): void {
  program
    .command('view')
    .description(
      'run viewer: every run in the store, task tables, transcripts with the ground-truth call alignment, run comparison; live while a run is in flight',
    )
    .option('--host <address>', 'address to bind (127.0.0.1 keeps the viewer on this machine)', '127.0.0.1')
    .option('--port <n>', 'port (0 = a free port); the URL is printed on stdout', wholeNumber(0, 65535), 8001)
    .option('--results-dir <dir>', 'results folder: the store and <label>/results_eval.json of `m3 eval step`', 'results')
    .option('--store <file>', 'SQLite run store (default: <results-dir>/m3bench.sqlite)')
    .option('--allow-host <name>', 'extra host name accepted in the Host header (when bound to a LAN address), repeatable', collect, [])
    .argument('[file]', 'with --export: the .html file (or a folder, which gets index.html); default <run-id>.html')
    .option(
      '--export <run-id>',
      'write one run as a self-contained page that opens from file:// (no server): runs page, task table, every transcript with its images, the alignment',
    )
    .option('--max-image-px <n>', 'with --export: downscale images to this longest edge (pixels)', wholeNumber(16, 100_000))
    .action(runView);
}
