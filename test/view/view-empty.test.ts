// `m3 view` on a folder where no run was made yet (a real CLI child, a real HTTP GET on
// loopback): it serves an empty viewer instead of failing, the run list is empty (the page then
// says how to make a run), and nothing is written into the folder.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startM3 } from '../support/m3-child.js';

const empty = mkdtempSync(path.join(os.tmpdir(), 'm3-view-empty-folder-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

describe('m3 view on an empty folder', () => {
  it('serves an empty run list and writes nothing there', async () => {
    const m3 = startM3(['view', '--results-dir', empty, '--port', '0']);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const found = /http:\/\/127\.0\.0\.1:\d+/.exec(m3.output());
          if (found) {
            clearInterval(timer);
            resolve(found[0]);
          }
        }, 100);
        void m3.exit.then((exit) => {
          clearInterval(timer);
          reject(new Error(`m3 view exited (${exit.code}):\n${m3.output()}`));
        });
      });
      const runs = (await (await fetch(`${url}/api/runs`)).json()) as { runs?: unknown[] } | unknown[];
      expect(Array.isArray(runs) ? runs : runs.runs).toEqual([]);
      expect((await fetch(`${url}/`)).status).toBe(200);
      expect(m3.output()).toMatch(/no run store at .* yet: showing an empty viewer \(make a run with m3 run/);
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      process.kill(-m3.pid, 'SIGTERM');
      await m3.exit;
    }
  }, 120_000);
});
