import path from 'node:path';
import type { Command } from 'commander';
import { loadAllResults } from '../../report/load-results.js';
import { formatSummaryTable } from '../../report/summary-table.js';

export function registerSummaryCommand(program: Command): void {
  program
    .command('summary')
    .description('print the headline numbers of every evaluated model and where the outputs are')
    .option('--results <dir>', 'results folder', 'results')
    .option('--save <dir>', 'figures and report folder', 'save')
    .option('--models <list>', 'comma-separated model labels (default: every evaluated model)')
    .action((flags: { results: string; save: string; models?: string }) => {
      const resultsDir = path.resolve(flags.results);
      const models = flags.models?.split(',').map((name) => name.trim()).filter(Boolean);
      const loaded = loadAllResults(resultsDir, models);
      process.stdout.write(`${formatSummaryTable(loaded.models)}\n`);
      if (loaded.missing.length > 0) process.stdout.write(`not evaluated: ${loaded.missing.join(', ')}\n`);
      const shown = (target: string) => path.relative(process.cwd(), target) || '.';
      process.stdout.write(
        [
          `predictions   ${shown(path.join(resultsDir, '<model>_test_mcp_fuzzy.json'))}`,
          `evaluations   ${shown(path.join(resultsDir, '<model>/'))}`,
          `run store     ${shown(path.join(resultsDir, 'm3bench.sqlite'))}`,
          `figures       ${shown(path.resolve(flags.save))}/`,
          `report        ${shown(path.join(path.resolve(flags.save), 'report.html'))}`,
        ].join('\n') + '\n',
      );
    });
}
