// `m3 trends`: pass@1 and step recall (with intervals) per model and condition across every
// batch in a results folder, split where the grader or the task set changed; `--plot` draws the
// same lines, split at the same boundaries, to a PNG or SVG.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { formatInterval, settingsLine } from '../../stats/format.js';
import { collectTrendPoints, splitTrend, type TrendLine } from '../../stats/trends.js';
import { renderPng, renderSvg } from '../../report/render-chart.js';
import { trendFigure } from '../../report/trend-chart.js';
import { addBootstrapOptions, bootstrapSettings, type BootstrapFlags } from '../bootstrap-options.js';

interface TrendsFlags extends BootstrapFlags {
  resultsDir: string;
  results?: string;
  cell?: string;
  join?: boolean;
  json?: boolean;
  /** true: save/trends.png; a string: that file (.png or .svg). */
  plot?: string | boolean;
}

const defaultPlotFile = path.join('save', 'trends.png');

/** Draws the lines to `file` (.svg: SVG, anything else: PNG) and returns its path. */
async function writePlot(lines: readonly TrendLine[], target: string | true): Promise<string> {
  const file = path.resolve(target === true ? defaultPlotFile : target);
  const spec = trendFigure(lines, path.basename(file, path.extname(file)));
  mkdirSync(path.dirname(file), { recursive: true });
  if (file.toLowerCase().endsWith('.svg')) writeFileSync(file, await renderSvg(spec), 'utf8');
  else writeFileSync(file, await renderPng(spec));
  return file;
}

function formatLine(line: TrendLine): string {
  const out = [`${line.label}`];
  line.segments.forEach((segment, index) => {
    if (line.segments.length > 1 || index > 0)
      out.push(
        `  segment ${index + 1}: grader ${segment.graderKey}, task set ${String(segment.taskSetHash).slice(0, 12)}, ground truth ${String(segment.points[0]?.gtSha256 ?? null).slice(0, 12)}`,
      );
    for (const point of segment.points) {
      out.push(
        `    ${point.startedAt.slice(0, 19)}  ${point.batchId.padEnd(24)} tasks ${String(point.tasks).padStart(4)} k ${point.trials}  pass@1 ${formatInterval(point.passAt1)}  recall ${formatInterval(point.recall)}`,
      );
    }
  });
  for (const crossing of line.crossed) out.push(`  joined across a boundary (--join) ${crossing}`);
  return out.join('\n');
}

export function registerTrendsCommand(program: Command): void {
  addBootstrapOptions(
    program
      .command('trends')
      .description('pass@1 and recall over time per model and condition, from every batch manifest (*.batch.json) in the results folder')
      .option('--results-dir <dir>', 'results root: every run folder under it (runs/<run-id>/) and batch manifests directly in it', 'results')
      .addOption(new Option('--results <dir>', 'alias of --results-dir').hideHelp())
      .option('--cell <label>', 'only this cell (model label, +condition)')
      .option('--join', 'keep one trend line across grader-version or task-set changes (the crossings are listed)')
      .option('--json', 'print the trend lines as JSON')
      .option('--plot [file]', `also draw the lines (split at the same boundaries) to a .png or .svg file (default ${defaultPlotFile})`),
  ).action(async (flags: TrendsFlags) => {
    const settings = bootstrapSettings(flags);
    const points = collectTrendPoints(path.resolve(flags.results ?? flags.resultsDir), settings);
    const lines = [...points]
      .filter(([label]) => !flags.cell || label === flags.cell)
      .map(([label, entries]) => splitTrend(label, entries, Boolean(flags.join)));
    const plot = flags.plot && lines.length > 0 ? await writePlot(lines, flags.plot) : undefined;
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ settings, lines, ...(plot ? { plot } : {}) }, null, 2)}\n`);
      return;
    }
    if (lines.length === 0) {
      process.stdout.write(`no evaluated batch in ${flags.results} (m3 run writes <batch>.batch.json; m3 eval step scores each trial)\n`);
      return;
    }
    process.stdout.write(`${lines.map(formatLine).join('\n\n')}\n\n${settingsLine(settings)}\n${plot ? `plot: ${plot}\n` : ''}`);
  });
}
