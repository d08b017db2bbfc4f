// `m3 demo`: the interactive multimodal web demo. Starts the MCP host once, creates the drivers,
// opens the run store and serves the page until SIGINT/SIGTERM. The URL goes to stdout (one
// line, so scripts and tests can read it); everything else to stderr.
import path from 'node:path';
import type { Command } from 'commander';
import { loadProjectConfig } from '../../config/index.js';
import { repoRoot } from '../../config/paths.js';
import { createModelChoice, playgroundRpcLogEntries, startDemoServer } from '../../demo/index.js';
import { log } from '../../log/logger.js';
import { McpHost } from '../../mcp/index.js';
import { parseToolSurface } from '../../mcp/tool-surface.js';
import { openStore, type Store } from '../../store/index.js';
import { wholeNumber } from '../option-parsers.js';
import { hostOptionsFrom } from '../host-options.js';
import { collect, waitForSignal } from '../serve-helpers.js';
import { secondsToTimerMs } from '../../config/timer-ms.js';

interface DemoFlags {
  host: string;
  port: number;
  model: string[];
  maxStep: number;
  maxConcurrent: number;
  topTools: number;
  maxNewTokens: number;
  config: string;
  /** False with --no-store. */
  store: string | false;
  logDir: string;
  allowHost: string[];
  toolSurface: string;
}

async function runDemo(flags: DemoFlags): Promise<void> {
  const config = loadProjectConfig({ serversFile: path.resolve(flags.config) });
  const logDir = path.resolve(flags.logDir);
  const models = await createModelChoice(flags.model, config.env, secondsToTimerMs(config.switches.M3_LLM_TIMEOUT));
  for (const model of models.models) if (model.error) log.warn(`model ${model.id} is not usable: ${model.error}`);
  if (models.note) log.info(models.note);
  const host = await McpHost.start(config.servers, {
    ...hostOptionsFrom(config),
    logDir: path.join(logDir, 'servers'),
    rpcLogEntries: playgroundRpcLogEntries,
    toolSurface: parseToolSurface(flags.toolSurface, repoRoot),
  });
  let store: Store | undefined;
  try {
    store = flags.store === false ? undefined : openStore(path.resolve(flags.store));
    const demo = await startDemoServer({
      toolHost: host,
      models,
      switches: config.switches,
      host: flags.host,
      port: flags.port,
      root: repoRoot,
      logDir,
      loopLimits: { maxStep: flags.maxStep, maxConcurrent: flags.maxConcurrent, topTools: flags.topTools, maxNewTokens: flags.maxNewTokens },
      allowedHosts: flags.allowHost,
      ...(store ? { store } : {}),
    });
    const ready = host.status().filter((server) => server.state === 'ready');
    log.info(
      `demo: ${ready.length}/${host.status().length} MCP server(s) ready, ${host.tools.length} tools; model(s): ${models.models.map((model) => model.id).join(', ') || 'none'}${demo.runId ? `; run ${demo.runId}` : ''}`,
    );
    if (flags.host !== '127.0.0.1' && flags.host !== 'localhost')
      log.warn(`demo: listening on ${flags.host}: anyone who can reach this address can use your models and tools (there is no login)`);
    process.stdout.write(`${demo.url}\n`);
    const signal = await waitForSignal();
    log.info(`demo: ${signal} received, shutting down`);
    await demo.close();
  } finally {
    store?.close();
    await host.close();
  }
  // SDK keep-alive sockets must not hold the process open after a clean shutdown.
  setTimeout(() => process.exit(0), 2000).unref();
}

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('interactive multimodal web demo: chat with a model that uses the MCP tools, with a live timeline and a tool playground')
    .option('--host <address>', 'address to bind (127.0.0.1 keeps the demo on this machine)', '127.0.0.1')
    .option('--port <n>', 'port (0 = a free port); the URL is printed on stdout', wholeNumber(0, 65535), 8000)
    .option('--model <spec>', 'provider:model, repeatable; the first is the default (default: the first model of OPENAI_BASE_URL, else none)', collect, [])
    .option('--max-step <n>', 'maximum rounds of tool calls per message', wholeNumber(1), 4)
    .option('--max-concurrent <n>', 'maximum parallel tool calls per round', wholeNumber(1), 4)
    .option(
      '--top-tools <n>',
      'offer the N best-ranked tools per message, as the reference demo does (0 = all; the page can offer all for one message)',
      wholeNumber(0),
      6,
    )
    .option('--max-new-tokens <n>', 'generation cap per model request', wholeNumber(1), 8192)
    .option('--config <file>', 'MCP server configuration', 'mcp_servers.json')
    .option('--store <file>', 'SQLite run store (a run per demo process, an episode per message)', 'results/m3bench.sqlite')
    .option('--no-store', 'do not write the run store')
    .option('--log-dir <dir>', 'where session logs (and server stderr logs) go', 'log')
    .option(
      '--tool-surface <surface>',
      'tools offered: m3bench (every tool of our servers), reference (the reference catalog exactly) or reference:<catalog file>',
      'm3bench',
    )
    .option('--allow-host <name>', 'extra host name accepted in the Host header (when bound to a LAN address), repeatable', collect, [])
    .action(runDemo);
}
