// Concurrent tasks against one real ppt server process over MCP stdio. Each call carries the
// host's call context (`_meta["m3bench/context"]`); before per-task state, the server kept one
// "current presentation" for every client, so four tasks that each created a deck and added a
// slide all saw one deck with four slides, and saved each other's slides.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallContext } from '../../src/core/tool-result-contract.js';
import { repoRoot } from '../support/shared-assets.js';
import { toolCaller } from '../support/tool-caller.js';
import { nodeEntryArgs } from '../support/built-entry.js';

let client: Client;
let work: string;
const { ok } = toolCaller(() => client);
const tasks = [0, 1, 2, 3].map((index) => `0017000${index}`);
const contexts = new Map<string, CallContext>();

async function slideTexts(file: string): Promise<string[]> {
  const zip = await JSZip.loadAsync(await readFile(file));
  const slides = Object.keys(zip.files).filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name));
  return Promise.all(
    slides.map(async (name) => [...((await zip.file(name)?.async('string')) ?? '').matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((match) => match[1]).join(' ')),
  );
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'm3-ppt-state-'));
  for (const taskId of tasks) {
    const workspace = path.join(work, 'runs', 'run-1', taskId);
    await mkdir(workspace, { recursive: true });
    contexts.set(taskId, { taskId, runId: 'run-1', workspace });
  }
  client = new Client({ name: 'ppt-state-test', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: nodeEntryArgs('servers/ppt/index.ts'),
      cwd: repoRoot,
      env: { ...getDefaultEnvironment(), M3_ALLOWED_ROOTS: work, PPT_OUTPUT_DIR: work },
      stderr: 'pipe',
    }),
  );
});

afterAll(async () => {
  await client?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const contextOf = (taskId: string): CallContext => contexts.get(taskId) as CallContext;

describe('ppt server state under concurrent tasks', () => {
  it('gives each task its own current presentation', async () => {
    // Every step runs in all four tasks at once, so each call sees the others' effects if state is shared.
    await Promise.all(tasks.map((taskId) => ok('create_presentation', {}, contextOf(taskId))));
    await Promise.all(tasks.map((taskId) => ok('add_slide', { layout_index: 0, title: `Deck of task ${taskId}` }, contextOf(taskId))));
    const texts = await Promise.all(tasks.map((taskId) => ok('extract_presentation_text', {}, contextOf(taskId))));
    for (const [index, text] of texts.entries()) {
      expect(text.slide_count, `task ${tasks[index]}`).toBe(1);
      expect(text.all_text).toBe(`Deck of task ${tasks[index]}`);
    }
    const listed = await Promise.all(tasks.map((taskId) => ok('list_presentations', {}, contextOf(taskId))));
    for (const list of listed) expect(list.presentations).toHaveLength(1);
  });

  it('saves the ground truth\'s "./media/<name>.pptx" into each task\'s own workspace', async () => {
    const saved = await Promise.all(tasks.map((taskId) => ok('save_presentation', { file_path: './media/hazard_highlights.pptx' }, contextOf(taskId))));
    for (const [index, taskId] of tasks.entries()) {
      const expected = path.join(contextOf(taskId).workspace, 'hazard_highlights.pptx');
      expect(saved[index]?.file_path).toBe(expected);
      expect(await slideTexts(expected)).toEqual([`Deck of task ${taskId}`]);
    }
  });

  it('keeps one shared state for calls without a context, apart from every task', async () => {
    await ok('create_presentation', { id: 'shared_deck' });
    await ok('add_slide', { title: 'No context' });
    expect(await ok('extract_presentation_text', {})).toMatchObject({ presentation_id: 'shared_deck', slide_count: 1, all_text: 'No context' });
    const taskView = await ok('list_presentations', {}, contextOf(tasks[0] as string));
    expect((taskView.presentations as Array<{ id: string }>).map((entry) => entry.id)).not.toContain('shared_deck');
  });
});
