// `m3 robustness <clean> <conditioned>`: a robustness condition's cost as paired differences
// against the clean cell, and its own rates (distractor calls, selection, recovery, attacks).
import type { Command } from 'commander';
import { log } from '../../log/logger.js';
import { loadCellRef, requireComparable } from '../../stats/paired-cells.js';
import { formatRobustnessReport } from '../../stats/robustness-format.js';
import { robustnessReport } from '../../stats/robustness-report.js';
import { addBootstrapOptions, bootstrapSettings, type BootstrapFlags } from '../bootstrap-options.js';

interface RobustnessFlags extends BootstrapFlags {
  allowMismatch?: boolean;
  json?: boolean;
}

export function registerRobustnessCommand(program: Command): void {
  addBootstrapOptions(
    program
      .command('robustness <clean> <conditioned>')
      .description(
        "what a robustness condition (--condition distractors=N, faults=p, inject=<suite>) cost: paired differences against the clean cell on the same tasks, and the condition's rates, with bootstrap intervals; each cell is <batch.json or results folder>[#<cell label>]",
      )
      .option('--allow-mismatch', 'compare cells scored by different grader versions or run on different task sets')
      .option('--json', 'print the report as JSON'),
  ).action((clean: string, conditioned: string, flags: RobustnessFlags) => {
    const settings = bootstrapSettings(flags);
    const left = loadCellRef(clean);
    const right = loadCellRef(conditioned);
    for (const problem of requireComparable(left, right, Boolean(flags.allowMismatch))) log.warn(`comparing anyway: ${problem}`);
    const report = robustnessReport(left, right, settings);
    process.stdout.write(flags.json ? `${JSON.stringify({ ...report, settings }, null, 2)}\n` : `${formatRobustnessReport(report, settings.level)}\n`);
  });
}
