// The real `m3` (a child, from dist/ when fresh) imports only the command module its command line
// names (src/cli/program.ts): `m3 summary --help` loads commands/summary and no other command
// module, `m3 --version` none; `m3 run` without an OTLP endpoint does not load the OpenTelemetry
// SDK (src/export/live-traces.ts). The modules are recorded by a load hook
// (test/support/record-loads.mjs). That each command loaded alone is the same command as in the
// full program is checked in process by test/docs/quoted-commands.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { m3EntryArgs } from '../support/built-entry.js';
import { runCommand } from '../support/m3-child.js';
import { repoRoot } from '../support/shared-assets.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-lazy-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hook = path.join(repoRoot, 'test', 'support', 'record-loads.mjs');

/** Runs `m3 <args>` and returns its result and the names of the command modules it loaded. */
async function commandModulesLoaded(args: string[]) {
  const file = path.join(dir, `${args.join('_').replace(/[^a-z0-9_]/gi, '')}.txt`);
  const result = await runCommand(process.execPath, ['--import', hook, ...m3EntryArgs(), ...args], { LOADED_MODULES_FILE: file });
  const urls = readFileSync(file, 'utf8').trim().split('\n');
  const commands = urls.flatMap((url) => /\/src\/cli\/commands\/([^/]+)\.[jt]s$/.exec(url)?.[1] ?? []);
  return { result, urls, commands };
}

describe('m3 loads only the command it runs', () => {
  it('m3 summary --help: commands/summary and no other command module', async () => {
    const { result, urls, commands } = await commandModulesLoaded(['summary', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: m3 summary [options]');
    // The hook saw the CLI's own modules (a hook that records nothing would pass the next line).
    expect(urls.some((url) => /\/src\/cli\/program\.[jt]s$/.test(url))).toBe(true);
    expect(commands).toEqual(['summary']);
  }, 120_000);

  it('m3 run --help: commands/run and not the OpenTelemetry SDK (imported only when traces are sent)', async () => {
    const { result, urls, commands } = await commandModulesLoaded(['run', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: m3 run [options]');
    expect(commands).toEqual(['run']);
    expect(urls.filter((url) => url.includes('/node_modules/@opentelemetry/'))).toEqual([]);
  }, 120_000);

  it('m3 --version: no command module', async () => {
    const { result, urls, commands } = await commandModulesLoaded(['--version']);
    expect([result.code, result.stdout]).toEqual([0, `${JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version}\n`]);
    expect(urls.some((url) => /\/src\/cli\/main\.[jt]s$/.test(url))).toBe(true);
    expect(commands).toEqual([]);
  }, 120_000);
});
