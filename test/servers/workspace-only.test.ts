// A call context marked `workspaceOnly` (the demo's sessions, src/demo/context.ts) confines every
// file argument to the workspace, in the servers whose file handling does not go through a
// tool's input_path/output_path pair: a DICOM file to read (healthcare), images to scan and a
// barcode's default output (barcode). Real servers over MCP stdio; two workspaces side by side.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallContext } from '../../src/core/tool-result-contract.js';
import { repoRoot } from '../support/shared-assets.js';
import { toolCaller } from '../support/tool-caller.js';
import { buildDicom } from './healthcare/dicom-file.js';
import { nodeEntryArgs } from '../support/built-entry.js';

const work = realpathSync(mkdtempSync(path.join(tmpdir(), 'm3-workspace-only-')));
const sessionA: CallContext = { taskId: 'session-a', runId: 'demo', workspace: path.join(work, 'a'), workspaceOnly: true };
const sessionB: CallContext = { taskId: 'session-b', runId: 'demo', workspace: path.join(work, 'b'), workspaceOnly: true };
const clients: Client[] = [];

async function start(entry: string): Promise<ReturnType<typeof toolCaller>> {
  const client = new Client({ name: 'workspace-only-test', version: '0.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: nodeEntryArgs(entry),
    cwd: repoRoot,
    env: { ...getDefaultEnvironment(), M3_ALLOWED_ROOTS: work, M3_NETWORK_GUARD: 'loopback' },
    stderr: 'pipe',
  });
  await client.connect(transport);
  clients.push(client);
  return toolCaller(() => client);
}

let healthcare: ReturnType<typeof toolCaller>;
let barcode: ReturnType<typeof toolCaller>;
const fields = { patientName: 'DOE^JANE', patientId: 'P-17', studyDescription: 'CHEST', seriesDescription: 'PA' };

beforeAll(async () => {
  for (const context of [sessionA, sessionB]) mkdirSync(context.workspace, { recursive: true });
  writeFileSync(path.join(sessionA.workspace, 'scan.dcm'), buildDicom(fields, true));
  healthcare = await start('servers/healthcare/index.ts');
  barcode = await start('servers/barcode/index.ts');
}, 120_000);

afterAll(async () => {
  for (const client of clients) await client.close();
  rmSync(work, { recursive: true, force: true });
});

describe('workspace-only call contexts', () => {
  it("read a DICOM file only from the caller's own workspace", async () => {
    const file = path.join(sessionA.workspace, 'scan.dcm');
    expect(await healthcare.ok('extract_dicom_metadata', { file_path: file }, sessionA)).toMatchObject({ status: 'success', ...fields });
    const refused = await healthcare.call('extract_dicom_metadata', { file_path: file }, sessionB);
    expect(refused.text).toContain("outside this session's workspace");
    expect(refused.text).not.toContain('DOE^JANE');
    // Without the flag, the same call is confined to the allowed roots only (the benchmark's rule).
    expect(await healthcare.ok('extract_dicom_metadata', { file_path: file }, { ...sessionB, workspaceOnly: false })).toMatchObject(fields);
  });

  it('write a default barcode into the workspace and scan only its own images', async () => {
    const generated = await barcode.ok('generate_barcode', { text: 'decoded-payload-b', format: 'QR_CODE' }, sessionB);
    const written = readdirSync(sessionB.workspace).filter((name) => name.endsWith('.png'));
    expect(written).toHaveLength(1);
    expect(existsSync(path.join(repoRoot, 'media', 'generated', written[0] ?? 'none'))).toBe(false);
    expect(generated.path).toContain(written[0]);
    const own = await barcode.ok('scan_barcode', { image_paths: path.join(sessionB.workspace, written[0] ?? '') }, sessionB);
    expect(JSON.stringify(own)).toContain('decoded-payload-b');
    const other = await barcode.call('scan_barcode', { image_paths: path.join(sessionB.workspace, written[0] ?? '') }, sessionA);
    expect(JSON.stringify(other)).toContain("outside this session's workspace");
    expect(JSON.stringify(other)).not.toContain('decoded-payload-b');
  });
});
