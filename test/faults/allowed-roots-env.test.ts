// M3_ALLOWED_ROOTS set in the user's environment must reach the servers: `m3 run` (in the test's
// process, the variable in its environment: test/support/m3-in-process.ts) starts the real imageops
// server as a child, which reads an image from a folder outside media/ that only M3_ALLOWED_ROOTS
// allows. Before the fix the child-env allowlist dropped the variable and the server refused the path.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { runM3InProcess } from '../support/m3-in-process.js';
import { nodeEntryArgs } from '../support/built-entry.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-roots-'));
const allowed = path.join(dir, 'allowed');
const picture = path.join(allowed, 'pic.png');
const configFile = path.join(dir, 'servers.json');
const tasksFile = path.join(dir, 'tasks.json');

describe('M3_ALLOWED_ROOTS from the environment', () => {
  it('reaches a real server child started by m3 run', async () => {
    mkdirSync(allowed, { recursive: true });
    await sharp({ create: { width: 12, height: 7, channels: 3, background: '#00ff00' } })
      .png()
      .toFile(picture);
    writeFileSync(configFile, JSON.stringify({ servers: { 'imagesorcery-mcp': { command: 'node', args: nodeEntryArgs('servers/imageops/index.ts') } } }));
    writeFileSync(
      tasksFile,
      JSON.stringify([
        {
          id: 'outside-media',
          question: 'how large is the picture?',
          final_reply: '12 x 7',
          steps: [{ step: 1, calls: [{ name: 'imagesorcery-mcp/get_metadata', arguments: { input_path: picture } }] }],
        },
      ]),
    );
    const resultsDir = path.join(dir, 'results');
    const { code, output } = await runM3InProcess(
      ['run', '--tasks', tasksFile, '--config', configFile, '--run-dir', resultsDir, '--store', path.join(dir, 'store.sqlite'), '--run-id', 'roots'],
      { M3_ALLOWED_ROOTS: allowed },
    );
    expect(code, output).toBe(0);
    const [record] = JSON.parse(readFileSync(path.join(resultsDir, 'replay-gt_test_mcp_fuzzy.json'), 'utf8')) as Array<{
      steps: Array<{ calls: Array<{ result: string }> }>;
    }>;
    const result = record?.steps[0]?.calls[0]?.result ?? '';
    expect(result).not.toContain('outside the allowed folders');
    expect(JSON.parse(result)).toMatchObject({ width: 12, height: 7 });
  }, 120_000);
});
