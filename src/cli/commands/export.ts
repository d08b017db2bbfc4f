// `m3 export --reference <run-id> [--to dir]`: a run's files in the reference's flat layout.
import path from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../errors/index.js';
import { exportReference, findRunFolder } from '../../results/export-reference.js';

interface ExportFlags {
  reference?: string;
  to?: string;
  resultsDir: string;
}

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description("write one run's files in the flat layout the reference's scripts default to (<to>/results/, <to>/results_cv/)")
    .option('--reference <run-id>', 'the run to export (its folder results/runs/<run-id>/; `latest` for the last finished run)')
    .option('--to <dir>', 'where results/ and results_cv/ are written (default: <results-dir>/export/<run-id>)')
    .option('--results-dir <dir>', 'results root holding runs/<run-id>/', 'results')
    .action((flags: ExportFlags) => {
      if (!flags.reference) throw new ConfigError('m3 export: pass --reference <run-id> (the only export format so far)');
      const runDir = findRunFolder(flags.resultsDir, flags.reference);
      const to = path.resolve(flags.to ?? path.join(flags.resultsDir, 'export', path.basename(runDir)));
      const exported = exportReference(runDir, to);
      const shown = (file: string) => path.relative(process.cwd(), file) || '.';
      process.stdout.write(
        `exported ${shown(exported.runDir)} (${exported.files} entries) to ${shown(exported.results)}/ and ${shown(exported.resultsCv)}/; run the reference's scripts from ${shown(to)}\n`,
      );
    });
}
