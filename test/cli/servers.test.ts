// `m3 servers check|list-tools` against the repo's mcp_servers.json and against throw-away
// configurations. The command runs in this process (test/support/m3-in-process.ts: the CLI's
// program, its printing and exit status); the servers it checks are real child processes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-assets.js';
import { fixtureFile, tsxLoaderUrl } from '../support/fixture-servers/fixture-spec.js';
import { fixtureEntryArgs } from '../support/built-entry.js';
import { runM3InProcess } from '../support/m3-in-process.js';

// The logger's level is fixed when the CLI loads, so the checks below hold at the default level
// (info) too: they read stdout, and stderr only for what the command itself prints.
const runCli = (args: string[]) => runM3InProcess(args);

let workDir: string;
beforeAll(() => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-cli-servers-'));
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function writeConfig(name: string, servers: Record<string, unknown>): string {
  const file = path.join(workDir, name);
  writeFileSync(file, JSON.stringify({ servers }, null, 2));
  return file;
}

describe('m3 servers check', { timeout: 240_000 }, () => {
  // All 29 configured servers start at once; on the 2-core machine at load 30-50 most of them
  // missed a 120 s start bound. 600 s (and the test's own 900 s) are hang guards, not speed bounds.
  it('passes against the repository mcp_servers.json offline: the math row and every web server answering from its smoke fake', {
    timeout: 900_000,
  }, async () => {
    const result = await runCli(['servers', 'check', '--smoke', '--offline', '--startup-timeout', '600']);
    expect(result.stderr).not.toMatch(/m3: /);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^server\s+status\s+tools\s+start ms\s+smoke$/m);
    expect(result.stdout).toMatch(/^math\s+OK\s+22\s+\d+\s+ok: math\/add → 5$/m);
    expect(result.stdout).toMatch(/^wiki\s+OK\s+2\s+\d+\s+ok: wiki\/summary → \*\*Common carp\*\*/m);
    expect(result.stdout).toMatch(/^weather\s+OK\s+1\s+\d+\s+ok: weather\/get_weather → Current weather in Beverly Hills, CA 90210: /m);
    for (const [server, tools, tool] of [
      ['openlibrary_mcp', 1, 'get_book_info'],
      ['okx', 2, 'get_price'],
      ['metmuseum-mcp', 3, 'list-departments'],
      ['car-price', 2, 'get_car_brands'],
      ['yahoo-finance', 9, 'get_historical_stock_prices'],
      ['hugeicons-mcp', 5, 'search_icons'],
    ] as const) {
      expect(result.stdout).toMatch(new RegExp(`^${server}\\s+OK\\s+${tools}\\s+\\d+\\s+ok: ${server}/${tool} → `, 'm'));
    }
    expect(result.stdout).toMatch(/\d+ ok, 0 failed, \d+ skipped/);
  });

  it('smokes a web server against its real upstream without --offline (refused here by the network guard) and against its fake with it', async () => {
    const repoServers = (JSON.parse(readFileSync(path.join(repoRoot, 'mcp_servers.json'), 'utf8')) as { servers: Record<string, unknown> }).servers;
    const config = writeConfig('web.json', { wiki: repoServers.wiki, okx: repoServers.okx });
    const online = await runCli(['servers', 'check', '--config', config, '--smoke', '--json', '--startup-timeout', '120']);
    expect(online.code).toBe(1);
    const onlineRows = (JSON.parse(online.stdout) as { servers: Array<{ server: string; status: string; smoke?: { state: string; detail: string } }> }).servers;
    expect(onlineRows.map((row) => [row.server, row.status, row.smoke?.state])).toEqual([
      ['wiki', 'FAILED', 'failed'],
      ['okx', 'FAILED', 'failed'],
    ]);
    expect(onlineRows[0]?.smoke?.detail).toContain('network guard: en.wikipedia.org is not loopback');
    expect(onlineRows[1]?.smoke?.detail).toContain('network guard: www.okx.com is not loopback');
    const offline = await runCli(['servers', 'check', '--config', config, '--smoke', '--offline', '--json', '--startup-timeout', '120']);
    expect(offline.code, offline.stdout + offline.stderr).toBe(0);
    const offlineRows = (JSON.parse(offline.stdout) as { servers: Array<{ server: string; status: string; smoke?: { state: string; detail: string } }> })
      .servers;
    expect(offlineRows.map((row) => [row.server, row.status, row.smoke?.state])).toEqual([
      ['wiki', 'OK', 'passed'],
      ['okx', 'OK', 'passed'],
    ]);
    expect(offlineRows[1]?.smoke?.detail).toContain('"instrument": "BTC-USDT"');
  });

  it('fails with a non-zero exit code naming a server whose command does not exist, and skips disabled ones', async () => {
    const config = writeConfig('broken.json', {
      ghost: { command: 'm3-no-such-binary-xyz', args: [], env: {} },
      resting: { command: 'm3-also-missing', disabled: true },
      echo: { command: process.execPath, args: fixtureEntryArgs(fixtureFile('echo'), tsxLoaderUrl), env: {} },
    });
    const result = await runCli(['servers', 'check', '--config', config, '--smoke', '--startup-timeout', '120']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^ghost\s+FAILED\s+0\s+\d+\s+not run$/m);
    expect(result.stdout).toMatch(/^resting\s+SKIPPED\s+0\s+$/m);
    expect(result.stdout).toMatch(/^echo\s+OK\s+7\s+\d+\s+none defined$/m);
    expect(result.stdout).toContain('ghost: server "ghost" failed to start: command "m3-no-such-binary-xyz" not found (ENOENT)');
    expect(result.stdout).toContain('1 ok, 1 failed, 1 skipped');
  });

  it('prints JSON rows with --json', async () => {
    const config = writeConfig('json.json', {
      echo: { command: process.execPath, args: fixtureEntryArgs(fixtureFile('echo'), tsxLoaderUrl), env: {} },
      // resolveArgs: false, or the config loader would take the script (it contains "/") for a path.
      dead: { command: process.execPath, args: ['-e', 'process.stderr.write("cannot load model weights\\n"); process.exit(2)'], resolveArgs: false },
    });
    const result = await runCli(['servers', 'check', '--config', config, '--json', '--startup-timeout', '120']);
    expect(result.code).toBe(1);
    const parsed = JSON.parse(result.stdout) as { servers: Array<{ server: string; status: string; tools: number; error?: string }> };
    expect(parsed.servers.map((row) => [row.server, row.status, row.tools])).toEqual([
      ['echo', 'OK', 7],
      ['dead', 'FAILED', 0],
    ]);
    expect(parsed.servers[1]?.error).toContain('exit code 2');
    expect(parsed.servers[1]?.error).toContain('cannot load model weights');
  });

  it('reports an unreadable configuration as a config error (exit 2)', async () => {
    const result = await runCli(['servers', 'check', '--config', path.join(workDir, 'missing.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('cannot read the server configuration');
  });
});

describe('m3 servers list-tools', { timeout: 240_000 }, () => {
  it('lists one server as JSON with canonical and function names', async () => {
    const result = await runCli(['servers', 'list-tools', '--server', 'math', '--json', '--startup-timeout', '120']);
    expect(result.code, result.stderr).toBe(0);
    const parsed = JSON.parse(result.stdout) as {
      toolsHash: string;
      tools: Array<{ canonicalName: string; functionName: string }>;
      servers: Array<{ name: string; state: string }>;
    };
    expect(parsed.servers).toEqual([expect.objectContaining({ name: 'math', state: 'ready' })]);
    expect(parsed.tools).toHaveLength(22);
    expect(parsed.tools.find((tool) => tool.canonicalName === 'math/multiply')?.functionName).toBe('math__multiply');
    expect(parsed.toolsHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('names the known servers when --server is unknown', async () => {
    const result = await runCli(['servers', 'list-tools', '--server', 'nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--server nope: no such server in .*mcp_servers\.json \(known: .*math/);
  });
});
