// `m3 cache export|import|stats`: the fallback layer's record-replay cache as a shareable JSONL
// file, so a group replays one recorded set of tool returns byte for byte.
import path from 'node:path';
import type { Command } from 'commander';
import { loadProjectConfig } from '../../config/index.js';
import { repoRoot } from '../../config/paths.js';
import { exportCache, importCache, readCacheStats } from '../../fallback/cache-transfer.js';
import { fallbackSettingsFrom } from '../../fallback/settings.js';

function cacheFile(flag: string | undefined): string {
  return flag ? path.resolve(flag) : fallbackSettingsFrom(loadProjectConfig().switches, repoRoot).cacheFile;
}

const cacheOption = ['--cache <file>', 'cache file (default: <M3_MOCK_DIR>/cache/fallback-cache.sqlite)'] as const;

export function registerCacheCommands(program: Command): void {
  const cache = program.command('cache').description("the tool fallback layer's record-replay cache: share it as JSONL, inspect it");
  cache
    .command('stats')
    .description('entries per server, tool and source (real, fixture, simulated), with the newest recording time')
    .option(...cacheOption)
    .option('--json', 'print the rows as JSON')
    .action((flags: { cache?: string; json?: boolean }) => {
      const file = cacheFile(flags.cache);
      const rows = readCacheStats(file);
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ file, rows }, null, 2)}\n`);
        return;
      }
      process.stdout.write(`cache ${path.relative(process.cwd(), file) || file}: ${rows.reduce((sum, row) => sum + row.entries, 0)} entries\n`);
      for (const row of rows)
        process.stdout.write(`  ${`${row.server}/${row.tool}`.padEnd(48)} ${row.source.padEnd(10)} ${String(row.entries).padStart(6)}  newest ${row.newest}\n`);
    });
  cache
    .command('export <file>')
    .description('write every cache entry to a JSONL file (one entry per line, stable order)')
    .option(...cacheOption)
    .action((output: string, flags: { cache?: string }) => {
      const lines = exportCache(cacheFile(flags.cache), path.resolve(output));
      process.stdout.write(`exported ${lines} entries to ${output}\n`);
    });
  cache
    .command('import <file>')
    .description('read a JSONL export into the cache (every line is checked first; all or nothing); imported entries replace local ones with the same key')
    .option(...cacheOption)
    .option('--keep-existing', 'keep local entries whose key the file also has')
    .action((input: string, flags: { cache?: string; keepExisting?: boolean }) => {
      const counts = importCache(cacheFile(flags.cache), path.resolve(input), { keepExisting: Boolean(flags.keepExisting) });
      process.stdout.write(
        `imported ${input}: ${counts.inserted} new, ${counts.replaced} replaced, ${counts.unchanged} unchanged, ${counts.kept} kept (--keep-existing)\n`,
      );
    });
}
