import type { Command } from 'commander';
import { loadProjectConfig } from '../../config/index.js';
import { repoRoot } from '../../config/paths.js';
import { describeProviders, formatProviderLines } from '../../config/provider-status.js';
import { describeSwitches } from '../../config/switches.js';
import { describeFallback } from '../../fallback/describe.js';
import { fallbackSettingsFrom } from '../../fallback/settings.js';

export function registerConfigCommands(program: Command): void {
  const config = program.command('config').description('inspect and validate configuration');
  config
    .command('check')
    .description('validate mcp_servers.json, .env and every M3_* switch; print the effective values and which provider variables are set')
    .option('--config <file>', 'server configuration file', undefined)
    .option('--json', 'print the effective configuration as JSON')
    .action((options: { config?: string; json?: boolean }) => {
      const loaded = loadProjectConfig({ ...(options.config ? { serversFile: options.config } : {}), includeDisabled: true });
      const fallback = describeFallback(fallbackSettingsFrom(loaded.switches, repoRoot), repoRoot);
      const providers = describeProviders(loaded.env);
      if (options.json) {
        const servers = loaded.servers.map((server) => ({
          name: server.name,
          transport: server.transport,
          envKeys: Object.keys(server.env),
          ...(server.description ? { description: server.description } : {}),
        }));
        process.stdout.write(
          `${JSON.stringify({ serversFile: loaded.serversFile, servers, switches: loaded.switches, fallback: fallback.facts, providers }, null, 2)}\n`,
        );
        return;
      }
      process.stdout.write(`servers file: ${loaded.serversFile} (${loaded.servers.length} entries, valid)\n`);
      for (const server of loaded.servers) {
        const target = server.transport === 'http' ? server.url : [server.command, ...server.args].join(' ');
        process.stdout.write(`  ${server.name.padEnd(20)} ${server.transport.padEnd(5)} ${target}\n`);
        if (server.description) process.stdout.write(`  ${''.padEnd(20)} ${server.description}\n`);
      }
      process.stdout.write('switches:\n');
      for (const entry of describeSwitches()) {
        const value = loaded.switches[entry.name as keyof typeof loaded.switches];
        process.stdout.write(`  ${entry.name.padEnd(26)} ${String(value).padEnd(10)} ${entry.help}\n`);
      }
      process.stdout.write(`tool fallback layer: ${fallback.lines.join('\n')}\n`);
      process.stdout.write('providers (src/config/provider-definitions.ts; variables named, values never shown):\n');
      for (const line of formatProviderLines(providers)) process.stdout.write(`${line}\n`);
    });
}
