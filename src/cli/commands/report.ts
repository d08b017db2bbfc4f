// `m3 report`: tables, charts and report.html from every model's evaluation outputs.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { fromRepo } from '../../config/paths.js';
import { log } from '../../log/logger.js';
import { addResultsDirOption, readFoldersFrom, type ResultsDirFlags } from '../results-options.js';

interface ReportOptions extends ResultsDirFlags {
  models?: string;
  catalog?: string;
  gt?: string;
  paper?: string | boolean;
  paperIncludeMocked?: boolean;
}

/** Ground truth for the per-tier table: the reference file, else the bundled local suite. */
function defaultGtFile(): string | undefined {
  return [fromRepo('json', 'test_mcp_GT.json'), fromRepo('json', 'm3_local_GT.json')].find((file) => existsSync(file));
}

export function registerReportCommand(program: Command): void {
  addResultsDirOption(
    program.command('report').description("leaderboard CSVs, Markdown tables, PNG + SVG charts and report.html from one run's <model>/ outputs"),
  )
    .option('--save <dir>', "where figures, tables and report.html are written (default: the run's save/, or save/ for a flat results folder)")
    .option('--models <list>', 'comma-separated model folder names (default: every model found)')
    .option(
      '--catalog <file>',
      'tool list for the tools-per-server chart (m3 servers list-tools --json output or a catalog file; default: the catalog `m3 run` wrote into the run folder, else <save>/mcp_tools_with_desc.json)',
    )
    .option('--gt <file>', 'ground truth with tier fields, for the per-tier table (default json/test_mcp_GT.json or json/m3_local_GT.json)')
    .option(
      '--paper [file]',
      'draw the runs next to the published per-model numbers (default file data/paper-results.json: the reference leaderboard figure, source and metric definitions inside)',
    )
    .option(
      '--paper-include-mocked',
      'with --paper: also draw runs whose calls the tool fallback layer answered or whose images were placeholders, labelled with their share (left out by default)',
    )
    .action(async (options: ReportOptions) => {
      // Loaded on use: the report is the only command that needs the native canvas.
      const { buildReport, defaultCatalogFile } = await import('../../report/build-report.js');
      const { resultsDir, saveDir } = readFoldersFrom(options);
      const catalogFile = options.catalog ? path.resolve(options.catalog) : (defaultCatalogFile(resultsDir) ?? defaultCatalogFile(saveDir));
      const gtFile = options.gt ? path.resolve(options.gt) : defaultGtFile();
      const paperFile =
        options.paper === true ? fromRepo('data', 'paper-results.json') : typeof options.paper === 'string' ? path.resolve(options.paper) : undefined;
      const models = options.models
        ?.split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '');
      const result = await buildReport({
        resultsDir,
        saveDir,
        ...(models ? { models } : {}),
        ...(catalogFile ? { catalogFile } : {}),
        ...(gtFile ? { gtFile } : {}),
        ...(paperFile ? { paperFile } : {}),
        paperIncludeMocked: options.paperIncludeMocked ?? false,
      });
      if (result.missing.length > 0) log.warn(`no evaluation outputs for: ${result.missing.join(', ')}`);
      log.info(`report for ${result.models.length} model(s): ${result.html}`);
      process.stdout.write(`${JSON.stringify({ html: result.html, models: result.models, missing: result.missing, files: result.files })}\n`);
    });
}
