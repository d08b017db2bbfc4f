// The folder a model-run test over the wire-level mock starts from: the math server (its dist/
// twin when fresh, else the source through tsx: test/support/built-entry.ts) as the only server, one generated 64x48 chart image, and one counting task per id
// asking about it. Used by the batch tests, which need image requests but no tool answers.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { nodeEntryArgs } from './built-entry.js';

export async function writeChartRunFolder(prefix: string, ids: readonly string[]): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  writeFileSync(
    path.join(dir, 'servers.json'),
    JSON.stringify({ servers: { math: { command: 'node', args: nodeEntryArgs('servers/math/index.ts'), env: {} } } }),
  );
  await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2a6' } })
    .png()
    .toFile(path.join(dir, 'chart.png'));
  writeFileSync(
    path.join(dir, 'tasks.json'),
    JSON.stringify(ids.map((id) => ({ id, image: 'chart.png', type: 'count', prompt: 'count', question: `How many bars are in chart ${id}?` }))),
  );
  return dir;
}
