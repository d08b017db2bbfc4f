// `m3 servers check` (start every enabled server, list its tools, optionally run a smoke call)
// and `m3 servers list-tools`. Tables and JSON go to stdout, logs to stderr; a failed server
// makes the exit code non-zero so scripts and CI can gate on it.
import path from 'node:path';
import type { Command } from 'commander';
import { loadProjectConfig, type ProjectConfig, type ServerSpec } from '../../config/index.js';
import { repoRoot } from '../../config/paths.js';
import { loadServersConfig } from '../../config/servers.js';
import { ConfigError } from '../../errors/index.js';
import { createLogger } from '../../log/logger.js';
import { McpHost } from '../../mcp/host.js';
import { runSmokeTest, startOfflineSmokeFakes, type SmokeResult } from '../../mcp/smoke-tests.js';
import { seconds } from '../option-parsers.js';
import { allowingFolder, hostOptionsFrom } from '../host-options.js';
import { withScratchFolder } from '../scratch-folder.js';
import { secondsToTimerMs } from '../../config/timer-ms.js';

interface CommonFlags {
  config?: string;
  startupTimeout?: number;
  logDir?: string;
}

interface CheckRow {
  server: string;
  status: 'OK' | 'FAILED' | 'SKIPPED';
  transport: string;
  tools: number;
  startMs?: number;
  smoke?: SmokeResult;
  error?: string;
}

interface LoadedServers {
  config: ProjectConfig;
  enabled: ServerSpec[];
}

function loadServers(flags: CommonFlags): LoadedServers {
  const config = loadProjectConfig({ ...(flags.config ? { serversFile: path.resolve(flags.config) } : {}), includeDisabled: true });
  const enabled = loadServersConfig(config.serversFile, { env: config.env, root: repoRoot, includeDisabled: false });
  return { config, enabled };
}

function startHost(specs: ServerSpec[], config: ProjectConfig, flags: CommonFlags, scratch?: string): Promise<McpHost> {
  const options = hostOptionsFrom(config);
  return McpHost.start(specs, {
    ...(scratch ? allowingFolder(options, scratch) : options),
    ...(flags.startupTimeout ? { startupTimeoutMs: secondsToTimerMs(flags.startupTimeout) } : {}),
    ...(flags.logDir ? { logDir: path.resolve(flags.logDir) } : {}),
    // Only warnings and errors: the table is the report.
    logger: createLogger('error'),
  });
}

async function checkServers(flags: CommonFlags & { smoke?: boolean; offline?: boolean }): Promise<CheckRow[]> {
  const { config, enabled } = loadServers(flags);
  // Files a smoke call writes (a downloaded photo, a workbook) go to a scratch folder the servers may use, never media/.
  return withScratchFolder('m3-servers-smoke', undefined, async (workspace) => {
    // --offline: web servers whose smoke declares a loopback fake talk to it instead of their upstream.
    const fakes = flags.smoke && flags.offline ? await startOfflineSmokeFakes(enabled) : undefined;
    const host = await startHost(fakes?.specs ?? enabled, config, flags, workspace).catch(async (error: unknown) => {
      await fakes?.close();
      throw error;
    });
    try {
      return await smokeRows(host, config, enabled, flags, fakes?.faked ?? [], workspace);
    } finally {
      await host.close();
      await fakes?.close();
    }
  });
}

async function smokeRows(
  host: McpHost,
  config: ProjectConfig,
  enabled: readonly ServerSpec[],
  flags: { smoke?: boolean },
  faked: readonly string[],
  workspace: string,
): Promise<CheckRow[]> {
  const enabledNames = new Set(enabled.map((spec) => spec.name));
  const statuses = new Map(host.status().map((status) => [status.name, status]));
  const rows: CheckRow[] = [];
  for (const spec of config.servers) {
    const status = statuses.get(spec.name);
    if (!enabledNames.has(spec.name) || !status) {
      rows.push({ server: spec.name, status: 'SKIPPED', transport: spec.transport, tools: 0 });
      continue;
    }
    const ready = status.state === 'ready';
    const row: CheckRow = { server: spec.name, status: ready ? 'OK' : 'FAILED', transport: spec.transport, tools: status.toolCount };
    if (status.startMs !== undefined) row.startMs = status.startMs;
    if (status.error) row.error = status.error;
    if (ready && flags.smoke) {
      row.smoke = await runSmokeTest(host, spec.name, workspace, { offline: faked.includes(spec.name) });
      if (row.smoke.state === 'failed') row.status = 'FAILED';
    }
    rows.push(row);
  }
  return rows;
}

function smokeCell(row: CheckRow, smokeRequested: boolean): string {
  if (row.status === 'SKIPPED') return '';
  if (!smokeRequested) return '-';
  if (!row.smoke) return 'not run';
  if (row.smoke.state === 'not_defined') return 'none defined';
  return `${row.smoke.state === 'passed' ? 'ok' : 'FAILED'}: ${row.smoke.detail}`;
}

function printCheckTable(rows: CheckRow[], smokeRequested: boolean): void {
  const width = Math.max(6, ...rows.map((row) => row.server.length)) + 2;
  const lines = [`${'server'.padEnd(width)}${'status'.padEnd(9)}${'tools'.padStart(5)}  ${'start ms'.padStart(8)}  smoke`];
  for (const row of rows) {
    const start = row.startMs === undefined ? '' : String(row.startMs);
    lines.push(`${row.server.padEnd(width)}${row.status.padEnd(9)}${String(row.tools).padStart(5)}  ${start.padStart(8)}  ${smokeCell(row, smokeRequested)}`);
  }
  const failed = rows.filter((row) => row.status === 'FAILED');
  for (const row of failed) {
    const reason = row.error ?? (row.smoke?.state === 'failed' ? `smoke test failed: ${row.smoke.detail}` : 'failed');
    lines.push('', `${row.server}: ${reason}`);
  }
  const counted = (status: CheckRow['status']) => rows.filter((row) => row.status === status).length;
  lines.push('', `${counted('OK')} ok, ${counted('FAILED')} failed, ${counted('SKIPPED')} skipped`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function listTools(flags: CommonFlags & { json?: boolean; server?: string }): Promise<void> {
  const { config, enabled } = loadServers(flags);
  let specs = enabled;
  if (flags.server) {
    specs = enabled.filter((spec) => spec.name === flags.server);
    if (specs.length === 0) {
      const disabled = config.servers.some((spec) => spec.name === flags.server);
      throw new ConfigError(
        disabled
          ? `--server ${flags.server}: that server is disabled in ${config.serversFile}`
          : `--server ${flags.server}: no such server in ${config.serversFile} (known: ${enabled.map((spec) => spec.name).join(', ') || 'none'})`,
      );
    }
  }
  const host = await startHost(specs, config, flags);
  try {
    const failed = host.status().filter((status) => status.state !== 'ready');
    for (const status of failed) process.stderr.write(`m3: ${status.error ?? `server "${status.name}" is ${status.state}`}\n`);
    if (failed.length > 0) process.exitCode = 1;
    if (flags.json) {
      process.stdout.write(
        `${JSON.stringify({ toolsHash: host.toolsHash(), servers: host.status().map(({ stderrTail: _tail, ...status }) => status), tools: host.tools }, null, 2)}\n`,
      );
      return;
    }
    const width = Math.max(10, ...host.tools.map((tool) => tool.canonicalName.length)) + 2;
    const lines = host.tools.map((tool) => {
      const description = (tool.description.split('\n')[0] ?? '').slice(0, 80);
      const alias = tool.functionName === tool.canonicalName.replace('/', '__') ? '' : `  [${tool.functionName}]`;
      return `${tool.canonicalName.padEnd(width)}${description}${alias}`;
    });
    process.stdout.write(`${lines.join('\n')}\n${host.tools.length} tools from ${host.status().length - failed.length} server(s)\n`);
  } finally {
    await host.close();
  }
}

export function registerServersCommands(program: Command): void {
  const servers = program.command('servers').description('start, check and inspect the MCP servers of mcp_servers.json');
  servers
    .command('check')
    .description('start every enabled server, list its tools and (with --smoke) call one tool; non-zero exit if any fails')
    .option('--config <file>', 'server configuration file (default: mcp_servers.json in the repo)')
    .option('--smoke', 'also call one known tool per server and check the answer')
    .option(
      '--offline',
      'with --smoke: web-API servers answer from the loopback fake of their upstream that their smoke declares (no network); others are smoked as usual',
    )
    .option('--json', 'print the result as JSON')
    .option('--startup-timeout <seconds>', 'per-server startup timeout (default 30)', seconds)
    .option('--log-dir <dir>', "append each server's stderr to <dir>/<server>.stderr.log")
    .action(async (flags: CommonFlags & { smoke?: boolean; offline?: boolean; json?: boolean }) => {
      const rows = await checkServers(flags);
      if (flags.json) process.stdout.write(`${JSON.stringify({ servers: rows }, null, 2)}\n`);
      else printCheckTable(rows, Boolean(flags.smoke));
      if (rows.some((row) => row.status === 'FAILED')) process.exitCode = 1;
    });
  servers
    .command('list-tools')
    .description('start the enabled servers and list their tools (canonical name, description)')
    .option('--config <file>', 'server configuration file (default: mcp_servers.json in the repo)')
    .option('--server <name>', 'only this server')
    .option('--json', 'print tools (with function names and input schemas) and server status as JSON')
    .option('--startup-timeout <seconds>', 'per-server startup timeout (default 30)', seconds)
    .action(async (flags: CommonFlags & { json?: boolean; server?: string }) => {
      await listTools(flags);
    });
}
