// `m3 assets ...`: exit codes and messages of pull, verify and list, in this process
// (test/support/m3-in-process.ts: the CLI's program, its printing and exit status).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAssetFixture, flipByte } from './fixtures.js';
import { runM3InProcess } from '../support/m3-in-process.js';

/** `m3 assets <args>` in this process, without the mirror of the test run's environment unless given. */
const runCli = (args: string[], env: Record<string, string> = {}) => runM3InProcess(['assets', ...args], { M3_ASSET_MIRROR: undefined, ...env });

describe('m3 assets', () => {
  it('verify exits 1 on missing and corrupted assets, 0 once pulled; pull uses M3_ASSET_MIRROR', async () => {
    const fixture = createAssetFixture();
    const location = ['--dir', fixture.target, '--manifest', fixture.manifestFile];

    const missing = await runCli(['verify', ...location]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain(`missing  tiny-model  not found at ${path.join(fixture.target, 'models/tiny.onnx')}`);
    expect(missing.stderr).toMatch(/3 of 3 asset\(s\) missing or wrong: run `m3 assets pull --force tiny-model detection\/one detection\/two`/);

    const pulled = await runCli(['pull', ...location], { M3_ASSET_MIRROR: fixture.mirror });
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain('3 asset(s)');
    expect(pulled.stdout).toContain('3 copied');
    expect(pulled.stderr).toMatch(/\[1\/3\] copied\s+tiny-model \(70 kB\)/);

    const ok = await runCli(['verify', ...location]);
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim().split('\n')).toEqual(['ok       tiny-model', 'ok       detection/one', 'ok       detection/two']);

    const file = path.join(fixture.target, 'images/detection/two.jpg');
    writeFileSync(file, flipByte(readFileSync(file)));
    const corrupted = await runCli(['verify', ...location]);
    expect(corrupted.code).toBe(1);
    expect(corrupted.stdout).toMatch(
      new RegExp(`mismatch detection/two  expected sha256 ${fixture.manifest.assets[2]?.sha256} \\(2500 bytes\\), got [0-9a-f]{64}`),
    );

    const listed = await runCli(['list', '--json', ...location]);
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as Array<{ name: string; present: boolean }>;
    expect(rows.map((row) => [row.name, row.present])).toEqual([
      ['tiny-model', true],
      ['detection/one', true],
      ['detection/two', true],
    ]);
  }, 240_000); // five CLI start-ups through tsx; slow on a loaded 2-core machine

  it('pull exits 2 naming the asset when the mirror lacks a file', async () => {
    const fixture = createAssetFixture();
    rmSync(path.join(fixture.mirror, 'images/detection/one.jpg'));
    const run = await runCli(['pull', '--dir', fixture.target, '--manifest', fixture.manifestFile, '--mirror', fixture.mirror, 'detection/*']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('m3: 1 of 2 asset(s) could not be pulled');
    expect(run.stderr).toContain(`asset "detection/one": not found in the offline mirror at ${path.join(fixture.mirror, 'images/detection/one.jpg')}`);
  }, 120_000);
});
