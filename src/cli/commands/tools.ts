// `m3 tools classify`: label every tool of a catalog in the reference layout
// (results/mcp_tools_with_desc.json, whose labels every later `m3 run` keeps) with one of the
// reference's eight categories, using any provider:model; `m3 report` then draws the category donut.
import { copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { loadEnvironment } from '../../config/env-file.js';
import { parseSwitches } from '../../config/switches.js';
import { secondsToTimerMs } from '../../config/timer-ms.js';
import { judgeRetryPolicy } from '../../eval/final/judge-kit.js';
import { classifyCatalogTools } from '../../eval/call/tool-categories.js';
import { ConfigError } from '../../errors/index.js';
import { createDriver } from '../../llm/registry.js';
import { log } from '../../log/logger.js';
import { positiveInteger } from '../option-parsers.js';

interface ClassifyFlags {
  model: string;
  catalog: string;
  attempts: number;
  maxTokens: number;
  json?: boolean;
}

const defaultCatalog = 'results/mcp_tools_with_desc.json';

/**
 * The results folder's labelled catalog, which every later run takes its labels from
 * (src/runner/tool-catalog.ts). Each run writes its own catalog into its run folder, so the first
 * labelling starts from the latest run's.
 */
function catalogToLabel(file: string): string {
  const target = path.resolve(file);
  if (file !== defaultCatalog || existsSync(target)) return target;
  const latest = path.resolve('results', 'latest', 'mcp_tools_with_desc.json');
  if (!existsSync(latest)) throw new ConfigError(`${target}: no catalog; run m3 run first (it writes one into its run folder) or pass --catalog`);
  copyFileSync(latest, target);
  log.info(`${file}: started from the latest run's catalog (${path.relative(process.cwd(), latest)}); later runs keep its labels`);
  return target;
}

async function runClassify(flags: ClassifyFlags): Promise<void> {
  const file = catalogToLabel(flags.catalog);
  const env = loadEnvironment();
  const switches = parseSwitches(env);
  const driver = await createDriver(flags.model, { env, timeoutMs: secondsToTimerMs(switches.M3_LLM_TIMEOUT) });
  const report = await classifyCatalogTools({
    file,
    driver,
    retryPolicy: judgeRetryPolicy(switches),
    attempts: flags.attempts,
    maxTokens: flags.maxTokens,
    onLabel: (tool, label) => log.info(`${tool} -> ${label}`),
  });
  for (const failure of report.failed) log.warn(`${failure.tool}: not labelled (${failure.reason}); the next run asks again`);
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    process.stdout.write(
      `${report.file}: ${report.tools} tools; ${report.labelled.length} labelled now by ${report.model}, ${report.kept} kept, ${report.failed.length} not labelled\n`,
    );
    for (const [category, count] of Object.entries(report.counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])))
      process.stdout.write(`  ${category}: ${count}\n`);
  }
  if (report.failed.length > 0) process.exitCode = 1;
}

export function registerToolsCommands(program: Command): void {
  const tools = program.command('tools').description('tool catalog utilities');
  tools
    .command('classify')
    .description(
      "label every tool of a catalog in the reference layout with one of the reference's 8 categories (kept across runs; only unlabelled tools are asked), for the report's category donut",
    )
    .option('--model <spec>', 'provider:model that labels (the reference used gemini-2.5-flash-lite)', 'gemini:gemini-2.5-flash-lite')
    .option(
      '--catalog <file>',
      "catalog in the reference layout {server: {tool: {description, catalogry?}}}; the default, the results folder's labelled catalog that later runs take labels from, starts as a copy of the latest run's",
      defaultCatalog,
    )
    .option('--attempts <n>', 'answers asked per tool until one is a wrapped allowed category', positiveInteger, 3)
    .option('--max-tokens <n>', 'generation cap per answer', positiveInteger, 1024)
    .option('--json', 'print the report as JSON')
    .addHelpText('after', '\nExit status: 0 every tool labelled; 1 some tools not labelled (named on stderr; run again to retry them); 2 bad input.')
    .action(runClassify);
}
