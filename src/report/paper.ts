// The paper comparison of `m3 report --paper`: published per-model numbers (data/paper-results.json,
// with their source, the metric definitions and the settings they were produced with) next to
// what m3bench computed for the same model. A results folder matches a published model by its
// name (`m3 run` names folders by the model id: openai:gpt-5 -> gpt-5) or one of the entry's
// aliases, ignoring case. A published model without a run says so; nothing is ever filled in.
// A run that rests on mocked tool returns or placeholder images (src/results/mocked-share.ts) is
// not comparable with the paper: it is left out and named in the note, unless asked for
// (`--paper-include-mocked`), and then drawn with its share in its label. The oracle and the
// synthetic agent keep their labels (displayName), so no bar of theirs reads as a model's.
import { z } from 'zod';
import { formatIssues } from '../config/zod-issues.js';
import { ConfigError } from '../errors/index.js';
import { loadJsonFile } from '../tasks/load-json.js';
import { background, leaderboardColors, scoreAxisMax, seriesPalette, type FigureSpec } from './chart-configs.js';
import { allStepMetrics, type LeaderboardRow } from './leaderboard.js';
import type { MockedShare } from '../results/mocked-share.js';
import type { Cell, Table } from './tables.js';
import { formatPercent, shareOf } from '../core/number-format.js';

/** The metrics a published value can be compared with: the leaderboard's columns. */
const comparableMetrics = ['average_score', ...allStepMetrics, 'completion_rate', 'information_grounding_rate'] as const;
type ComparableMetric = (typeof comparableMetrics)[number];

const paperModelSchema = z
  .object({
    model: z.string().trim().min(1),
    label: z.string().trim().min(1),
    aliases: z.array(z.string().trim().min(1)).default([]),
    values: z.partialRecord(z.enum(comparableMetrics), z.number().finite()),
  })
  .strict();

const paperResultsSchema = z
  .object({
    source: z.object({ title: z.string().min(1), artifact: z.string().min(1), table: z.string().min(1), caveats: z.array(z.string()).default([]) }).loose(),
    settings: z.record(z.string(), z.unknown()).default({}),
    metrics: z.partialRecord(z.enum(comparableMetrics), z.string().min(1)).refine((metrics) => Object.keys(metrics).length > 0, 'define at least one metric'),
    models: z.array(paperModelSchema).min(1),
  })
  .strict()
  .superRefine((file, context) => {
    file.models.forEach((entry, index) => {
      for (const metric of Object.keys(entry.values)) {
        if (!(metric in file.metrics))
          context.addIssue({ code: 'custom', path: ['models', index, 'values', metric], message: `metric "${metric}" is not defined under "metrics"` });
      }
    });
  });

export type PaperResults = z.output<typeof paperResultsSchema>;

export function loadPaperResults(file: string): PaperResults {
  const parsed = paperResultsSchema.safeParse(loadJsonFile(file));
  if (!parsed.success)
    throw new ConfigError(
      `not a paper-results file (data/paper-results.json shows the format; metrics may be ${comparableMetrics.join(', ')}):\n${formatIssues(file, parsed.error.issues)}`,
    );
  return parsed.data;
}

function ourValue(row: LeaderboardRow, metric: ComparableMetric): number {
  if (metric === 'average_score') return row.average;
  if (metric === 'completion_rate' || metric === 'information_grounding_rate') return row[metric];
  return row.metrics[metric];
}

/** Each run's mocked share (by results-folder name), and whether mocked runs are drawn at all. */
export interface PaperRunLabels {
  shares: ReadonlyMap<string, MockedShare>;
  includeMocked: boolean;
}

const percentOf = (part: number, whole: number) => formatPercent(shareOf(part, whole), { trim: true, separator: ' ' });

/** What makes a run not a clean benchmark result: "mocked 25 %", "placeholder images 50 %". */
function mockedTags(share: MockedShare | undefined): string[] {
  if (!share) return [];
  return [
    ...(share.mockedCalls > 0 ? [`mocked ${percentOf(share.mockedCalls, share.calls)}`] : []),
    ...(share.placeholderTasks > 0 ? [`placeholder images ${percentOf(share.placeholderTasks, share.tasks)}`] : []),
  ];
}

interface RunSelection {
  rows: LeaderboardRow[];
  /** Runs left out, each with why. */
  leftOut: string[];
  tags: Map<LeaderboardRow, string[]>;
}

function selectRuns(rows: readonly LeaderboardRow[], labels: PaperRunLabels | undefined): RunSelection {
  const selection: RunSelection = { rows: [], leftOut: [], tags: new Map() };
  for (const row of rows) {
    const tags = mockedTags(labels?.shares.get(row.model));
    if (tags.length > 0 && !labels?.includeMocked) selection.leftOut.push(`${row.model} (${tags.join(', ')})`);
    else selection.rows.push(row);
    if (tags.length > 0) selection.tags.set(row, tags);
  }
  return selection;
}

function labelOf(pair: ComparisonRow, selection: RunSelection): string {
  const tags = pair.ours ? (selection.tags.get(pair.ours) ?? []) : [];
  return tags.length > 0 ? `${pair.label} (${tags.join(', ')})` : pair.label;
}

function leftOutNote(selection: RunSelection): string {
  if (selection.leftOut.length === 0) return '';
  return ` Left out, not comparable with the paper: ${selection.leftOut.join('; ')}; m3 report --paper --paper-include-mocked draws them, labelled.`;
}

interface ComparisonRow {
  label: string;
  paper: PaperResults['models'][number] | undefined;
  ours: LeaderboardRow | undefined;
}

/** Published models in file order (with their run, if any), then runs the file does not list. */
function pairRuns(paper: PaperResults, rows: readonly LeaderboardRow[]): ComparisonRow[] {
  const used = new Set<LeaderboardRow>();
  const paired = paper.models.map((entry) => {
    const names = new Set([entry.model, ...entry.aliases].map((name) => name.toLowerCase()));
    const ours = rows.find((row) => !used.has(row) && names.has(row.model.toLowerCase()));
    if (ours) used.add(ours);
    return { label: entry.label, paper: entry, ours };
  });
  return [...paired, ...rows.filter((row) => !used.has(row)).map((row) => ({ label: row.display, paper: undefined, ours: row }))];
}

function noteFor(pair: ComparisonRow, metrics: readonly ComparableMetric[]): string {
  if (!pair.ours) return 'no m3bench run of this model';
  const notes = pair.paper ? [] : ['not in the paper'];
  if (metrics.includes('average_score') && !Number.isFinite(pair.ours.information_grounding_rate)) {
    notes.push('no information grounding (no judge run): the m3bench average is over the six step metrics only, not the paper definition');
  }
  return notes.join('; ');
}

export function paperComparisonTable(paper: PaperResults, rows: readonly LeaderboardRow[], labels?: PaperRunLabels): Table {
  const metrics = Object.keys(paper.metrics) as ComparableMetric[];
  const selection = selectRuns(rows, labels);
  const pairs = pairRuns(paper, selection.rows);
  return {
    id: 'paper-comparison',
    title: 'Paper vs m3bench',
    header: ['model', ...metrics.flatMap((metric) => [`paper: ${metric}`, `m3bench: ${metric}`, `difference: ${metric}`]), 'm3bench results folder', 'note'],
    rows: pairs.map((pair): Cell[] => [
      labelOf(pair, selection),
      ...metrics.flatMap((metric) => {
        const published = pair.paper?.values[metric] ?? Number.NaN;
        const computed = pair.ours ? ourValue(pair.ours, metric) : Number.NaN;
        return [published, computed, computed - published];
      }),
      pair.ours?.model ?? '',
      noteFor(pair, metrics),
    ]),
    note: `Published values: ${paper.source.title}; ${paper.source.table} (${paper.source.artifact}). ${paper.source.caveats.join(' ')}${leftOutNote(selection)}`.trim(),
  };
}

/** Paper and m3bench side by side for the file's first metric, one pair of bars per model. */
export function paperComparisonFigure(paper: PaperResults, rows: readonly LeaderboardRow[], labels?: PaperRunLabels): FigureSpec {
  const metric = Object.keys(paper.metrics)[0] as ComparableMetric;
  const selection = selectRuns(rows, labels);
  const pairs = pairRuns(paper, selection.rows);
  const value = (input: number | undefined) => (input !== undefined && Number.isFinite(input) ? input : null);
  return {
    name: 'paper_vs_m3bench',
    title: `Paper vs m3bench (${metric})`,
    width: 1000,
    height: Math.max(300, 110 + 46 * pairs.length),
    config: {
      type: 'bar',
      data: {
        labels: pairs.map((pair) => (pair.ours ? labelOf(pair, selection) : `${pair.label} (no m3bench run)`)),
        datasets: [
          { label: 'paper (published)', data: pairs.map((pair) => value(pair.paper?.values[metric])), backgroundColor: leaderboardColors.top },
          {
            label: 'm3bench (this report)',
            data: pairs.map((pair) => value(pair.ours ? ourValue(pair.ours, metric) : undefined)),
            backgroundColor: seriesPalette[1],
          },
        ],
      },
      options: {
        indexAxis: 'y',
        responsive: false,
        animation: false,
        scales: {
          x: {
            min: 0,
            max: scoreAxisMax(pairs.flatMap((pair) => [value(pair.paper?.values[metric]), value(pair.ours ? ourValue(pair.ours, metric) : undefined)])),
            title: { display: true, text: metric },
          },
          y: { grid: { display: false } },
        },
        plugins: {
          title: { display: true, text: `${metric}: published values next to this report's runs` },
          legend: { position: 'bottom' },
          valueLabels: { decimals: 3 },
          canvasBackground: background,
        },
      },
    },
  };
}
