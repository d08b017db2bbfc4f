// `m3 fixtures record|verify`: record real tool returns for the GT calls into the fallback
// cache while the APIs work, and check the curated fixture files.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { loadProjectConfig } from '../../config/index.js';
import { repoRoot } from '../../config/paths.js';
import { ConfigError } from '../../errors/index.js';
import { loadToolCatalog } from '../../eval/call/catalog.js';
import { AllowList } from '../../fallback/allow-list.js';
import { formatFixtureProblem, loadFixtures } from '../../fallback/fixtures.js';
import { createFallbackLayer } from '../../fallback/index.js';
import { planGtCalls, recordServer, type PlannedCall } from '../../fallback/record-gt.js';
import { fallbackSettingsFrom } from '../../fallback/settings.js';
import { verifyFixtures } from '../../fallback/verify-fixtures.js';
import { log } from '../../log/logger.js';
import { registerSecretsFromEnv } from '../../log/redact.js';
import { McpHost } from '../../mcp/index.js';
import { loadGroundTruth } from '../../tasks/load.js';
import { nonNegativeInteger, secondsOrZero } from '../option-parsers.js';

interface RecordFlags {
  gt: string;
  servers?: string[];
  limit: number;
  delay: number;
  list?: boolean;
  config: string;
  cache?: string;
  startupTimeout: number;
}

function printPlan(plan: Map<string, PlannedCall[]>, allowList: AllowList): void {
  for (const [server, calls] of plan) {
    process.stdout.write(`# ${server}: ${calls.length} unique GT call(s)\n`);
    for (const call of calls) {
      const decision = allowList.decide({ canonicalName: `${server}/${call.tool}`, server, tool: call.tool, inputSchema: {} });
      process.stdout.write(`    ${call.tool} ${JSON.stringify(call.arguments)}${decision.mockable ? '' : `  [not recorded: ${decision.reason}]`}\n`);
    }
  }
}

async function record(flags: RecordFlags): Promise<void> {
  const config = loadProjectConfig({ serversFile: path.resolve(flags.config) });
  registerSecretsFromEnv(config.env);
  const base = fallbackSettingsFrom(config.switches, repoRoot);
  const settings = { ...base, enabled: false, record: true, ...(flags.cache ? { cacheFile: path.resolve(flags.cache) } : {}) };
  const plan = planGtCalls(loadGroundTruth(path.resolve(flags.gt)), flags.servers);
  if (plan.size === 0) throw new ConfigError(`${flags.gt}: no GT calls${flags.servers ? ` to ${flags.servers.join(', ')}` : ''}`);
  if (flags.list) {
    printPlan(plan, new AllowList(settings.extraAllowed, loadFixtures(settings.fixturesDir)));
    return;
  }
  const specs = config.servers.filter((spec) => plan.has(spec.name));
  const host = await McpHost.start(specs, { callTimeoutMs: config.switches.M3_TOOL_CALL_TIMEOUT * 1000, startupTimeoutMs: flags.startupTimeout * 1000 });
  const layer = createFallbackLayer({ settings, host, env: config.env, timeoutMs: config.switches.M3_LLM_TIMEOUT * 1000, logger: log });
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'm3-record-'));
  const summaries = [];
  try {
    if (!layer) throw new ConfigError('the fallback layer did not start for recording');
    for (const [server, calls] of plan) {
      process.stdout.write(`--- ${server}: ${calls.length} call(s)${flags.limit > 0 ? `, at most ${flags.limit}` : ''} ---\n`);
      const summary = await recordServer(server, calls, {
        host,
        recorder: layer.interceptor,
        delayMs: flags.delay * 1000,
        limit: flags.limit,
        workspace,
        serverEnv: (name) => config.servers.find((spec) => spec.name === name)?.env,
        onLine: (line) => process.stdout.write(`${line}\n`),
      });
      if (summary.skipped) process.stdout.write(`    skipped: ${summary.skipped}\n`);
      summaries.push(summary);
    }
  } finally {
    layer?.close();
    await host.close();
    rmSync(workspace, { recursive: true, force: true });
  }
  process.stdout.write(`=== recorded into ${path.relative(process.cwd(), settings.cacheFile) || settings.cacheFile} ===\n`);
  for (const summary of summaries)
    process.stdout.write(
      `  ${summary.server}: recorded=${summary.recorded} failed=${summary.failed}${summary.skipped ? ` (skipped: ${summary.skipped})` : ''}\n`,
    );
}

async function verify(flags: { dir?: string; catalog?: string; json?: boolean }): Promise<void> {
  const dir = flags.dir ? path.resolve(flags.dir) : fallbackSettingsFrom(loadProjectConfig().switches, repoRoot).fixturesDir;
  const catalog = flags.catalog ? loadToolCatalog(path.resolve(flags.catalog)) : undefined;
  const report = await verifyFixtures(dir, catalog);
  if (flags.json) {
    process.stdout.write(
      `${JSON.stringify({ dir, tools: report.set.tools.size, entries: report.set.entries, replayed: report.replayed, checkedArguments: report.checkedArguments, problems: report.problems }, null, 2)}\n`,
    );
  } else {
    process.stdout.write(
      `${dir}: ${report.set.tools.size} tool(s), ${report.set.entries} valid entries, ${report.replayed} replayed through the layer as written${report.checkedArguments ? '' : ' (arguments not checked: pass --catalog results/tools_catalog.json)'}\n`,
    );
    for (const problem of report.problems) process.stdout.write(`  ${formatFixtureProblem(problem)}\n`);
    process.stdout.write(report.problems.length === 0 ? 'all fixtures valid\n' : `${report.problems.length} problem(s)\n`);
  }
  if (report.problems.length > 0) process.exitCode = 1;
}

export function registerFixturesCommands(program: Command): void {
  const fixtures = program.command('fixtures').description("the tool fallback layer's fixtures: record real returns of GT calls, verify curated fixture files");
  fixtures
    .command('record')
    .description('call the GT calls of mockable tools through their servers and store the successful returns in the fallback cache (the GT file is only read)')
    .option('--gt <file>', 'ground-truth file whose calls are made', 'json/test_mcp_GT.json')
    .option('--servers <names...>', 'only these servers (default: every server the GT calls)')
    .option('--limit <n>', 'at most n calls per server (0 = all)', nonNegativeInteger, 0)
    .option('--delay <s>', 'seconds between two calls to one server (rate-limit friendly)', secondsOrZero, 4)
    .option('--list', 'only print the planned calls')
    .option('--config <file>', 'MCP server configuration', 'mcp_servers.json')
    .option('--cache <file>', 'cache file (default: <M3_MOCK_DIR>/cache/fallback-cache.sqlite)')
    .option('--startup-timeout <s>', 'seconds each MCP server may take to start', nonNegativeInteger, 120)
    .action(record);
  fixtures
    .command('verify')
    .description('schema-check every fixture file (problems by file and entry index) and replay each entry through the fallback layer')
    .option('--dir <dir>', 'fixtures folder (default: <M3_MOCK_DIR>/fixtures)')
    .option('--catalog <file>', 'tool catalog to check tools and arguments against (results/tools_catalog.json, or the shared tools_catalog.json)')
    .option('--json', 'print the report as JSON')
    .action(verify);
}
