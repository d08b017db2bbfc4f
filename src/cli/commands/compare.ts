// `m3 compare A B`: paired comparison of two cells (models or conditions) on the tasks both ran,
// with the bootstrap interval of A - B and a sign test; "A beats B" only when the interval
// excludes 0. `m3 gate`: the same comparison as a CI gate with a non-zero exit on a regression.
import type { Command } from 'commander';
import { log } from '../../log/logger.js';
import { evaluateGate } from '../../stats/gate.js';
import { comparePaired, describeComparison } from '../../stats/paired.js';
import { compareMetrics, loadCellRef, pairedMetric, pairUnits, parseCompareMetric, requireComparable, type CompareMetric } from '../../stats/paired-cells.js';
import { settingsLine } from '../../stats/format.js';
import { formatRobustnessReport } from '../../stats/robustness-format.js';
import { robustnessOfPair } from '../../stats/robustness-report.js';
import { SUCCESS_RULE } from '../../stats/task-success.js';
import { addBootstrapOptions, bootstrapSettings, type BootstrapFlags } from '../bootstrap-options.js';
import { fraction } from '../option-parsers.js';

const refHelp = '<batch.json or results folder>[#<cell label>] (a folder means its newest batch; the label may be left out when the batch has one cell)';

interface CompareFlags extends BootstrapFlags {
  metric: CompareMetric;
  allowMismatch?: boolean;
  json?: boolean;
}

interface GateFlags extends CompareFlags {
  baseline: string;
  candidate: string;
  maxDrop: number;
  minPassRate?: number;
}

function registerCompare(program: Command): void {
  addBootstrapOptions(
    program
      .command('compare <a> <b>')
      .description(`paired comparison of two cells on the same tasks; each is ${refHelp}`)
      .option('--metric <name>', `what to compare: ${compareMetrics.join(', ')}`, parseCompareMetric, 'pass')
      .option('--allow-mismatch', 'compare cells scored by different grader versions or run on different task sets')
      .option('--json', 'print the comparison as JSON'),
  ).action((a: string, b: string, flags: CompareFlags) => {
    const settings = bootstrapSettings(flags);
    const left = loadCellRef(a);
    const right = loadCellRef(b);
    const problems = requireComparable(left, right, Boolean(flags.allowMismatch));
    for (const problem of problems) log.warn(`comparing anyway: ${problem}`);
    const comparison = comparePaired(pairUnits(left.cell, right.cell), pairedMetric(flags.metric), settings);
    // A robustness cell against a clean one: its own rates (distractor calls, recovery, attacks) with their intervals too.
    const robustness = robustnessOfPair(left, right, settings);
    if (flags.json) {
      process.stdout.write(
        `${JSON.stringify({ cellA: left.cell.label, cellB: right.cell.label, metric: flags.metric, ...comparison, settings, problems, ...(robustness ? { robustness } : {}) }, null, 2)}\n`,
      );
      return;
    }
    process.stdout.write(`${describeComparison(left.cell.label, right.cell.label, flags.metric, comparison, settings.level)}\n`);
    if (flags.metric === 'pass') process.stdout.write(`success rule: ${SUCCESS_RULE}\n`);
    if (robustness) process.stdout.write(`${formatRobustnessReport(robustness, settings.level)}\n`);
    process.stdout.write(`${settingsLine(settings)}\n`);
  });
}

function registerGate(program: Command): void {
  addBootstrapOptions(
    program
      .command('gate')
      .description('CI regression gate: exit 1 when the candidate is worse than the baseline beyond noise and the allowed drop, or under the pass-rate floor')
      .requiredOption('--baseline <ref>', refHelp)
      .requiredOption('--candidate <ref>', refHelp)
      .option('--metric <name>', `compared metric: ${compareMetrics.join(', ')}`, parseCompareMetric, 'pass')
      .option('--max-drop <x>', 'largest drop of the metric tolerated even when it is beyond noise', fraction, 0)
      .option('--min-pass-rate <x>', 'fail when the candidate pass@1 is under this floor', fraction)
      .option('--allow-mismatch', 'gate across grader versions or task sets')
      .option('--json', 'print the verdict as JSON')
      .addHelpText('after', '\nExit status: 0 the gate passes; 1 it fails (the reasons are printed); 2 bad input.'),
  ).action((flags: GateFlags) => {
    const settings = bootstrapSettings(flags);
    const baseline = loadCellRef(flags.baseline);
    const candidate = loadCellRef(flags.candidate);
    requireComparable(baseline, candidate, Boolean(flags.allowMismatch));
    const result = evaluateGate(
      baseline.cell,
      candidate.cell,
      { metric: flags.metric, maxDrop: flags.maxDrop, ...(flags.minPassRate !== undefined ? { minPassRate: flags.minPassRate } : {}) },
      settings,
    );
    if (flags.json)
      process.stdout.write(`${JSON.stringify({ baseline: baseline.cell.label, candidate: candidate.cell.label, ...result, settings }, null, 2)}\n`);
    else {
      process.stdout.write(`${describeComparison(candidate.cell.label, baseline.cell.label, flags.metric, result.comparison, settings.level)}\n`);
      process.stdout.write(`pass@1: candidate ${result.candidatePassRate.toFixed(3)}, baseline ${result.baselinePassRate.toFixed(3)}\n`);
      process.stdout.write(result.passed ? 'gate: PASS\n' : `gate: FAIL\n${result.reasons.map((reason) => `  - ${reason}`).join('\n')}\n`);
    }
    if (!result.passed) process.exitCode = 1;
  });
}

export function registerCompareCommands(program: Command): void {
  registerCompare(program);
  registerGate(program);
}
