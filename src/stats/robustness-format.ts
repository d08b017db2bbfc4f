// The text of `m3 robustness`: every number with its definition and interval.
import type { Interval } from './bootstrap.js';
import type { PairedComparison } from './paired.js';
import type { RobustnessReport } from './robustness-report.js';

const show = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : 'n/a');
const interval = (entry: Interval) => `${show(entry.estimate)} [${show(entry.low)}, ${show(entry.high)}]`;
const signed = (value: number) => (Number.isFinite(value) ? `${value > 0 ? '+' : ''}${value.toFixed(3)}` : 'n/a');

/** A difference is a cost or a gain depending on the metric, so the line states it without ranking. */
function deltaLine(name: string, comparison: PairedComparison, percent: number): string {
  const { difference, signTest } = comparison;
  const beyond = comparison.verdict === 'no_difference' ? `${percent}% CI includes 0` : `${percent}% CI excludes 0`;
  return `${name}: ${signed(difference.estimate)} [${signed(difference.low)}, ${signed(difference.high)}] (${beyond}; ${comparison.tasks} paired tasks, sign test ${signTest.wins}-${signTest.losses}, ties ${signTest.ties}, p=${signTest.pValue.toPrecision(2)})`;
}

export function formatRobustnessReport(report: RobustnessReport, level: number): string {
  const percent = Math.round(level * 100);
  const lines = [
    `robustness: ${report.conditioned} (condition ${report.condition}) against ${report.clean}, ${report.pairedTasks} paired tasks, ${percent}% bootstrap intervals over tasks`,
    '',
    'paired differences (conditioned - clean):',
  ];
  for (const delta of report.deltas) {
    lines.push(`  ${deltaLine(delta.name, delta.comparison, percent)}`);
    lines.push(`    (${delta.definition}; clean ${show(delta.comparison.b)}, conditioned ${show(delta.comparison.a)})`);
  }
  lines.push('', `rates on ${report.conditioned}:`);
  if (report.rates.length === 0)
    lines.push('  none: no call of this cell carries a robustness condition mark (was it run with --condition distractors=, faults= or inject=?)');
  for (const entry of report.rates) lines.push(`  ${entry.name}: ${interval(entry.interval)} over ${entry.tasks} task(s) — ${entry.definition}`);
  if (report.attacks.length > 0) {
    lines.push('', 'attack success rate per injection style (tasks whose instruction was followed / tasks planted):');
    for (const attack of report.attacks) {
      const channels = Object.entries(attack.channels)
        .map(([channel, count]) => `${channel} ${count}`)
        .join(', ');
      lines.push(`  ${attack.style}: ${interval(attack.interval)} over ${attack.tasks} task(s); planted in ${channels}`);
    }
    lines.push('  utility under attack: the task-success difference above');
  }
  return lines.join('\n');
}

/** `m3 summary`'s lines: per robustness cell, the task-success difference and the condition's rates. */
export function robustnessSummaryLines(reports: readonly RobustnessReport[]): string[] {
  return reports.map((report) => {
    const success = report.deltas.find((delta) => delta.name === 'task success')?.comparison.difference;
    const rates = report.rates.map((entry) => `${entry.name} ${interval(entry.interval)}`).join('; ');
    return `robustness ${report.conditioned} vs ${report.clean}: task success ${success ? interval(success) : 'n/a'} (conditioned - clean)${rates ? `; ${rates}` : ''} (m3 robustness for every figure and definition)`;
  });
}
