// File arguments under a task context: the ground truth's "/tmp/*.xlsx" and "./media/*" paths
// map into each task's workspace (servers/shared/task-paths.ts), so concurrent tasks writing
// the same name never share a file; the mapping is logged on the server's stderr. Before, two
// tasks writing "/tmp/cold_fever_drugs.xlsx" (11 GT calls in several tasks) wrote one file, and
// default image outputs landed next to a shared input.
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapIntoWorkspace } from '../../servers/shared/task-paths.js';
import type { CallContext } from '../../src/core/tool-result-contract.js';
import { repoRoot } from '../support/shared-assets.js';
import { toolCaller } from '../support/tool-caller.js';
import { nodeEntryArgs } from '../support/built-entry.js';

describe('mapIntoWorkspace', () => {
  const media = '/repo/media';
  const workspace = '/repo/media/runs/r1/00080001';
  it.each([
    ['./media/word_frequency.xlsx', `${workspace}/word_frequency.xlsx`],
    ['media/outputs/deck.pptx', `${workspace}/outputs/deck.pptx`],
    ['./food_reddit_wiki.xlsx', `${workspace}/food_reddit_wiki.xlsx`],
    ['images/00080001.png', `${workspace}/00080001.png`],
    ['/tmp/cold_fever_drugs.xlsx', `${workspace}/tmp/cold_fever_drugs.xlsx`],
    ['file:///tmp/a.png', `${workspace}/tmp/a.png`],
    ['/repo/media/x.png', `${workspace}/x.png`],
    [`${workspace}/x.png`, `${workspace}/x.png`],
    ['./media/runs/r1/00080001/x.png', `${workspace}/x.png`],
  ])('%s → %s', (input, expected) => {
    expect(mapIntoWorkspace(input, workspace, media)).toBe(expected);
  });

  it('is the identity in a workspace that is media/ itself (M3_WORKSPACE_MODE=dedup)', () => {
    expect(mapIntoWorkspace('./media/x.png', media, media)).toBe('/repo/media/x.png');
    expect(mapIntoWorkspace('/tmp/y.xlsx', media, media)).toBe('/repo/media/tmp/y.xlsx');
  });

  it('refuses paths that climb out of the workspace', () => {
    expect(() => mapIntoWorkspace('./media/../../etc/passwd', workspace, media)).toThrow(/leaves the task's workspace/);
    expect(() => mapIntoWorkspace('', workspace, media)).toThrow(/empty/);
  });
});

interface Started {
  client: Client;
  stderr: string[];
}

async function start(entry: string, env: Record<string, string>): Promise<Started> {
  const client = new Client({ name: 'workspace-test', version: '0.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: nodeEntryArgs(entry),
    cwd: repoRoot,
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  await client.connect(transport);
  return { client, stderr };
}

let work: string;
let excel: Started;
let imageops: Started;
const contexts: CallContext[] = [];

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'm3-workspaces-'));
  for (const taskId of ['00090001', '00090002']) {
    const workspace = path.join(work, 'runs', 'run-2', taskId);
    await mkdir(workspace, { recursive: true });
    contexts.push({ taskId, runId: 'run-2', workspace });
  }
  await mkdir(path.join(work, 'shared'), { recursive: true });
  await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } })
    .png()
    .toFile(path.join(work, 'shared', 'photo.png'));
  excel = await start('servers/excel/index.ts', { M3_ALLOWED_ROOTS: work, EXCEL_FILES_PATH: work });
  imageops = await start('servers/imageops/index.ts', { M3_ALLOWED_ROOTS: work });
});

afterAll(async () => {
  await excel?.client.close();
  await imageops?.client.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('excel under task contexts', () => {
  const { ok } = toolCaller(() => excel.client);
  it('two tasks writing "/tmp/cold_fever_drugs.xlsx" at once each get their own workbook', async () => {
    const file = '/tmp/cold_fever_drugs.xlsx';
    await Promise.all(contexts.map((context) => ok('create_workbook', { filepath: file }, context)));
    await Promise.all(
      contexts.map((context) => ok('write_data_to_excel', { filepath: file, sheet_name: 'Sheet1', data: [['task'], [context.taskId]] }, context)),
    );
    for (const context of contexts) {
      const target = path.join(context.workspace, 'tmp', 'cold_fever_drugs.xlsx');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(target);
      expect(workbook.getWorksheet('Sheet1')?.getCell('A2').value).toBe(context.taskId);
      const read = await ok('read_data_from_excel', { filepath: file, sheet_name: 'Sheet1' }, context);
      expect(JSON.stringify(read)).toContain(context.taskId);
    }
    expect(excel.stderr.join('')).toContain(
      `[paths] task ${contexts[0]?.taskId}: "/tmp/cold_fever_drugs.xlsx" -> ${path.join(contexts[0]?.workspace ?? '', 'tmp', 'cold_fever_drugs.xlsx')}`,
    );
  });
});

describe('imageops under task contexts', () => {
  const { ok } = toolCaller(() => imageops.client);
  it('writes "./media/<name>" outputs and default outputs into the task workspace and reads them back by the same name', async () => {
    const [first, second] = contexts as [CallContext, CallContext];
    await copyFile(path.join(work, 'shared', 'photo.png'), path.join(first.workspace, 'photo.png'));
    // The task image as the ground truth names it: "./media/<name>" is the copy in the workspace.
    const cropped = await ok('crop', { input_path: './media/photo.png', x1: 0, y1: 0, x2: 32, y2: 24, output_path: './media/photo_crop.png' }, first);
    expect(cropped.images).toEqual([path.join(first.workspace, 'photo_crop.png')]);
    const again = await ok('crop', { input_path: './media/photo_crop.png', x1: 0, y1: 0, x2: 16, y2: 12 }, first);
    expect(again.images).toEqual([path.join(first.workspace, 'photo_crop_crop.png')]);
    // A shared input outside the workspace: the default output goes to the workspace, not next to it.
    const shared = await ok('change_color', { input_path: path.join(work, 'shared', 'photo.png'), palette: 'grayscale' }, second);
    expect(shared.images).toEqual([path.join(second.workspace, 'photo_change_color.png')]);
    expect(existsSync(path.join(work, 'shared', 'photo_change_color.png'))).toBe(false);
  });
});
