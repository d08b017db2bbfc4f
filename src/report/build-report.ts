// `m3 report`: reads every model's evaluation outputs, writes the leaderboard CSVs, Markdown
// tables, PNG + SVG + PDF figures (and the reference's combined call_pies.pdf) and one
// self-contained `report.html` into the save folder.
import { toolCatalogFiles } from '../results/layout.js';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ToolCatalog } from '../eval/call/catalog.js';
import { loadReportCatalog } from './catalog-categories.js';
import { EvaluationError } from '../errors/index.js';
import {
  callDonutFigure,
  cvFigure,
  finalJudgeFigure,
  finalProxyFigure,
  illegalCallingFigure,
  leaderboardFigure,
  stepMetricsFigure,
  toolCategoryFigure,
  toolsPerServerFigure,
  type FigureSpec,
} from './chart-configs.js';
import { mockedShare, mockedShareTable, modelResponseTable, placeholderImageTable } from './fallback-share.js';
import { renderHtml, type HtmlSection } from './html.js';
import { buildLeaderboard, roundsCsv, stepEvalCsv, syntheticAgentKind, toCsv } from './leaderboard.js';
import { defaultCvDir, loadAllResults, type ModelResults } from './load-results.js';
import { renderPdf, writeFigure, type RenderedFigure } from './render-chart.js';
import { shownPath, withoutRepoPath } from './report-paths.js';
import { graderVersionsTable, runsTable } from './run-metadata.js';
import {
  callTable,
  cvTable,
  finalJudgeTable,
  finalProxyTable,
  leaderboardTable,
  orderConsistencyExplanation,
  roundsTable,
  toMarkdown,
  toolsTable,
  type Table,
} from './tables.js';
import { buildTierRows, loadTiers, tierTable } from './tiers.js';
import { newestTrialsTables } from './trials-section.js';
import { buildTaskSection } from './task-section.js';
import { loadPaperResults, paperComparisonFigure, paperComparisonTable } from './paper.js';

export interface ReportOptions {
  resultsDir: string;
  saveDir: string;
  models?: string[];
  /** Tool list for the tools-per-server figure (live `m3 servers list-tools --json` or a catalog file). */
  catalogFile?: string;
  /** Ground truth with `tier` fields, for the per-tier table. */
  gtFile?: string;
  /** Where the CV metrics are (default: results_cv/ beside resultsDir). */
  cvDir?: string;
  /** Published per-model numbers (data/paper-results.json format) to draw next to the runs. */
  paperFile?: string;
  /** Draw runs with mocked tool returns or placeholder images in the paper comparison (labelled); left out by default. */
  paperIncludeMocked?: boolean;
  /** The repository: every path the report shows is relative to it (default: the working directory). */
  root?: string;
}

export interface ReportResult {
  files: string[];
  models: string[];
  missing: string[];
  html: string;
}

async function renderSection(
  title: string,
  tables: Array<Table | undefined>,
  specs: Array<FigureSpec | undefined>,
  saveDir: string,
  extras: Partial<HtmlSection> = {},
): Promise<{ section: HtmlSection; rendered: RenderedFigure[] }> {
  const rendered: RenderedFigure[] = [];
  for (const spec of specs) if (spec) rendered.push(await writeFigure(spec, saveDir));
  const figures = rendered.map((figure) => ({
    title: figure.spec.title,
    pngBase64: readFileSync(figure.png).toString('base64'),
    svgFile: path.relative(saveDir, figure.svg),
    pdfFile: path.relative(saveDir, figure.pdf),
  }));
  return { section: { title, tables: tables.filter((table): table is Table => table !== undefined), figures, ...extras }, rendered };
}

function predictionFiles(resultsDir: string, models: readonly ModelResults[]): string[] {
  return models.map((results) => path.join(resultsDir, `${results.model}_test_mcp_fuzzy.json`));
}

const viewerPort = 8001;

/** The paragraphs under the title: which agents are not models, and where per-task detail is. */
function introFor(models: readonly ModelResults[], resultsDir: string, root: string): Array<{ text: string; code?: string }> {
  const synthetic = models.flatMap((results) => {
    const kind = syntheticAgentKind(results.model);
    return kind ? [`${results.model} is the ${kind}`] : [];
  });
  return [
    ...(synthetic.length > 0
      ? [{ text: `Synthetic agents in this report: ${synthetic.join('; ')}. They check the harness and the metrics; their numbers are not model results.` }]
      : []),
    {
      text: `Per-task transcripts, the ground-truth call alignment and run comparison are in the run viewer (its own web server, port ${viewerPort} by default; the run ids below link to it):`,
      code: `m3 view --results-dir ${shownPath(resultsDir, root)}`,
    },
  ];
}

/** call_pies.pdf as the reference names it: the illegal-calling chart, then one donut per model, a page each. */
function callPiesPdf(parts: ReadonlyArray<{ rendered: RenderedFigure[] }>): Buffer | undefined {
  const specs = parts
    .flatMap((part) => part.rendered.map((figure) => figure.spec))
    .filter((spec) => spec.name === 'call_illegal_calling' || spec.name.startsWith('call_categories_'));
  return specs.length > 0 ? renderPdf(specs, 'Call-level categories per model') : undefined;
}

export async function buildReport(options: ReportOptions): Promise<ReportResult> {
  const root = path.resolve(options.root ?? process.cwd());
  const { models, missing } = loadAllResults(options.resultsDir, options.models, options.cvDir ?? defaultCvDir(options.resultsDir));
  const catalog: ToolCatalog | undefined = options.catalogFile ? loadReportCatalog(options.catalogFile) : undefined;
  const paper = options.paperFile ? loadPaperResults(options.paperFile) : undefined;
  if (models.length === 0 && !catalog) {
    throw new EvaluationError(
      `no evaluation results under ${options.resultsDir} (expected <model>/results_eval.json, taskcompletion.json, callanalysis.json or final_proxy.json; run m3 eval step|call|final first) and no --catalog given`,
    );
  }
  mkdirSync(options.saveDir, { recursive: true });
  const files: string[] = [];
  const write = (name: string, text: string) => {
    const file = path.join(options.saveDir, name);
    writeFileSync(file, text, 'utf8');
    files.push(file);
  };

  const rows = buildLeaderboard(models);
  write('step_eval_result.csv', stepEvalCsv(rows));
  write('avg_rounds_tool_calls.csv', roundsCsv(rows));

  const tiers = loadTiers([...(options.gtFile ? [options.gtFile] : []), ...predictionFiles(options.resultsDir, models)]);
  const shares = predictionFiles(options.resultsDir, models).map((file, index) =>
    mockedShare(models[index]?.model ?? '', file, file.replace(/\.json$/i, '.manifest.json')),
  );
  const trials = newestTrialsTables(options.resultsDir);
  const paperLabels = {
    shares: new Map(shares.flatMap((share, index) => (share ? [[models[index]?.model ?? '', share] as const] : []))),
    includeMocked: options.paperIncludeMocked ?? false,
  };
  const tables = {
    runs: runsTable(models, (model) => path.join(options.resultsDir, `${model}_test_mcp_fuzzy.manifest.json`), root, `http://127.0.0.1:${viewerPort}`),
    graders: graderVersionsTable(models),
    placeholders: placeholderImageTable(shares),
    leaderboard: rows.length > 0 ? leaderboardTable(rows) : undefined,
    rounds: rows.length > 0 ? roundsTable(rows) : undefined,
    calls: callTable(models),
    judges: finalJudgeTable(models),
    proxies: finalProxyTable(models),
    cv: cvTable(models),
    tools: catalog ? toolsTable({ ...catalog, source: shownPath(catalog.source, root) }) : undefined,
    tiers: tierTable(buildTierRows(models, tiers)),
    mocked: mockedShareTable(shares),
    modelResponses: modelResponseTable(shares),
    trials: trials.trials,
    trialsPerformance: trials.performance,
    paper: paper ? paperComparisonTable(paper, rows, paperLabels) : undefined,
  };
  if (tables.paper) write('paper_comparison.csv', toCsv(tables.paper.header, tables.paper.rows));
  const taskLevel = buildTaskSection(options.resultsDir, options.models);
  for (const file of taskLevel.csv) write(file.name, file.text);
  const markdown = [...Object.values(tables).filter((table): table is Table => table !== undefined), ...taskLevel.tables].map(toMarkdown);
  const encoderNotes = [
    ...new Set(models.flatMap((results) => [results.step?.encoder?.note, results.cv?.encoder?.note]).filter((note): note is string => Boolean(note))),
  ];
  const stepNotes = [orderConsistencyExplanation, ...encoderNotes];
  write('report.md', `# m3bench report\n\n${markdown.join('\n')}\n${stepNotes.map((note) => `> ${note}\n`).join('\n')}`);

  const parts = [
    await renderSection('What was run', [tables.runs, tables.graders], [], options.saveDir),
    await renderSection(
      'Step-level evaluation',
      [tables.placeholders, tables.leaderboard, tables.rounds, tables.mocked, tables.modelResponses],
      rows.length > 0 ? [leaderboardFigure(rows), stepMetricsFigure(rows)] : [],
      options.saveDir,
      { notes: rows.length > 0 ? stepNotes : [] },
    ),
    await renderSection('Paper comparison', [tables.paper], paper ? [paperComparisonFigure(paper, rows, paperLabels)] : [], options.saveDir),
    await renderSection('CV metrics', [tables.cv], [cvFigure(models)], options.saveDir),
    await renderSection('Call-level evaluation', [tables.calls], [illegalCallingFigure(models), ...models.map(callDonutFigure)], options.saveDir, {
      grid: true,
    }),
    await renderSection('Final answer', [tables.judges, tables.proxies], [finalJudgeFigure(models), finalProxyFigure(models)], options.saveDir, {
      notes: ['Judge scores and proxies are shown apart: proxies compare the final reply with the GT final_reply and are not judge scores.'],
    }),
    await renderSection('Trials and uncertainty', [tables.trials, tables.trialsPerformance], [], options.saveDir),
    await renderSection('Per-tier breakdown', [tables.tiers], [], options.saveDir),
    await renderSection('Task-level evaluation', taskLevel.tables, taskLevel.figures, options.saveDir, { notes: taskLevel.notes }),
    await renderSection('Tools', [tables.tools], catalog ? [toolsPerServerFigure(catalog), toolCategoryFigure(catalog)] : [], options.saveDir),
  ];
  for (const part of parts) for (const figure of part.rendered) files.push(figure.png, figure.svg, figure.pdf);
  const pies = callPiesPdf(parts);
  if (pies) {
    writeFileSync(path.join(options.saveDir, 'call_pies.pdf'), pies);
    files.push(path.join(options.saveDir, 'call_pies.pdf'));
  }

  const sections = parts.map((part) => part.section).filter((section) => section.tables.length > 0 || section.figures.length > 0);
  const downloads = [
    'step_eval_result.csv',
    'avg_rounds_tool_calls.csv',
    ...(tables.paper ? ['paper_comparison.csv'] : []),
    ...taskLevel.csv.map((file) => file.name),
    ...(pies ? ['call_pies.pdf'] : []),
    'report.md',
  ];
  const html = renderHtml({
    title: 'm3bench report',
    generatedAt: new Date().toISOString(),
    intro: introFor(models, options.resultsDir, root),
    sections,
    downloads,
    missingModels: missing,
  });
  // A last guard: no message or note may carry the machine's repository path into the page.
  write('report.html', withoutRepoPath(html, root));
  return { files, models: models.map((results) => results.model), missing, html: path.join(options.saveDir, 'report.html') };
}

/** The reference-style catalog file in a folder (a run folder, where `m3 run` writes it, or save/), when present. */
export function defaultCatalogFile(dir: string): string | undefined {
  const file = toolCatalogFiles(dir).reference;
  return existsSync(file) ? file : undefined;
}
