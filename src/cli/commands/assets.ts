// `m3 assets pull|verify|list`: bring the manifest's files (model, test photos) into
// media/assets/, check them, show them. Progress goes to stderr, results to stdout.
// Exit codes: verify exits 1 when an asset is missing or wrong; pull failures exit 2 (M3Error).
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { defaultAssetsDir, defaultManifestFile, loadAssetManifest, pullAssets, verifyAssets, type PullResult } from '../../assets/index.js';
import { loadEnvironment } from '../../config/env-file.js';
import { parseSwitches } from '../../config/switches.js';

interface LocationOptions {
  dir: string;
  manifest: string;
}

function withLocation(command: Command): Command {
  return command.option('--dir <dir>', 'assets directory', defaultAssetsDir).option('--manifest <file>', 'asset manifest', defaultManifestFile);
}

function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1000))} kB`;
}

function reportPull(result: PullResult, index: number, total: number): void {
  const position = `[${String(index + 1).padStart(String(total).length)}/${total}]`;
  const detail =
    result.action === 'failed'
      ? (result.error ?? 'failed')
      : `${formatBytes(result.bytes)}${result.unverifiedSha256 ? `, sha256 ${result.unverifiedSha256} not pinned in the manifest` : ''}`;
  process.stderr.write(`${position} ${result.action.padEnd(10)} ${result.name} (${detail})\n`);
}

export function registerAssetsCommands(program: Command): void {
  const assets = program
    .command('assets')
    .description(
      'pull, verify and list downloaded assets (the YOLOX model, test photos; --manifest media/encoders.json: the reference text encoders; --manifest media/vision-models.json: the optional pose and open-vocabulary detector models)',
    );

  withLocation(assets.command('pull'))
    .description('download (or copy from an offline mirror) the assets into media/assets/, checking each sha256')
    .argument('[names...]', 'asset names; "detection/*" selects a prefix; none means all')
    .option('--mirror <dir>', 'offline mirror laid out like ../shared/assets (default: M3_ASSET_MIRROR)')
    .option('--force', 'fetch again even when a good copy is present')
    .action(async (names: string[], options: LocationOptions & { mirror?: string; force?: boolean }) => {
      const mirror = options.mirror ?? parseSwitches(loadEnvironment()).M3_ASSET_MIRROR;
      const results = await pullAssets({
        names,
        manifest: loadAssetManifest(options.manifest),
        targetDir: options.dir,
        force: options.force ?? false,
        ...(mirror ? { mirror } : {}),
        onProgress: reportPull,
      });
      const count = (action: PullResult['action']) => results.filter((result) => result.action === action).length;
      process.stdout.write(
        `${results.length} asset(s) in ${options.dir}: ${count('present')} already present, ${count('copied')} copied, ${count('downloaded')} downloaded\n`,
      );
    });

  withLocation(assets.command('verify'))
    .description('check every asset in media/assets/ against its sha256 (exit 1 if any is missing or wrong)')
    .argument('[names...]', 'asset names; none means all')
    .action(async (names: string[], options: LocationOptions) => {
      const checks = await verifyAssets({ names, manifest: loadAssetManifest(options.manifest), targetDir: options.dir });
      for (const check of checks) {
        const detail =
          check.status === 'mismatch'
            ? `  expected sha256 ${check.expectedSha256} (${check.expectedBytes} bytes), got ${check.actualSha256} (${check.actualBytes} bytes) at ${check.path}`
            : check.status === 'missing'
              ? `  not found at ${check.path}`
              : check.status === 'unverified'
                ? `  sha256 ${check.actualSha256} (${check.actualBytes} bytes); the manifest pins no hash to compare with`
                : '';
        process.stdout.write(`${check.status.padEnd(9)}${check.name}${detail}\n`);
      }
      const bad = checks.filter((check) => check.status === 'missing' || check.status === 'mismatch');
      if (bad.length > 0) {
        process.stderr.write(
          `${bad.length} of ${checks.length} asset(s) missing or wrong: run \`m3 assets pull --force ${bad.map((check) => check.name).join(' ')}\` (offline: add --mirror ../shared/assets)\n`,
        );
        process.exitCode = 1;
        return;
      }
      const unverified = checks.filter((check) => check.status === 'unverified').length;
      process.stderr.write(
        unverified
          ? `${checks.length - unverified} asset(s) ok, ${unverified} present but unverified (no pinned sha256)\n`
          : `all ${checks.length} asset(s) ok\n`,
      );
    });

  withLocation(assets.command('list'))
    .description('list the assets of the manifest and whether each is present')
    .option('--json', 'print JSON')
    .action((options: LocationOptions & { json?: boolean }) => {
      const manifest = loadAssetManifest(options.manifest);
      const rows = manifest.assets.map((asset) => {
        const file = path.join(options.dir, asset.path);
        const present = existsSync(file) && (typeof asset.bytes !== 'number' || statSync(file).size === asset.bytes);
        return { ...asset, file, present };
      });
      if (options.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      const width = Math.max(...rows.map((row) => row.name.length), 4);
      for (const row of rows) {
        process.stdout.write(
          `${row.present ? 'present' : 'absent '}  ${row.name.padEnd(width)}  ${row.kind.padEnd(5)}  ${(typeof row.bytes === 'number' ? formatBytes(row.bytes) : 'unverified').padStart(8)}  ${row.license}\n`,
        );
      }
    });
}
