// Migration 014: each episode's end status (answered, refused, truncated, ...) and what the vendor
// said are stored, read back, refused when not one of the known statuses, and counted by
// `m3 summary` from the prediction files' `end_status`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { endStatusCounts, formatEndStatusCounts } from '../../src/report/end-status-counts.js';
import { createRun, episodesForRun, finishEpisode, openStore, startEpisode } from '../../src/store/index.js';
import { tempStoreFile } from './temp-store.js';

describe('episode end status (migration 014)', () => {
  it('stores the end status and its detail, and refuses an unknown status by field', () => {
    const store = openStore(tempStoreFile());
    try {
      createRun(store, { runId: 'r', modelSpec: 'anthropic:claude', modelLabel: 'claude', configHash: 'c' });
      const refused = startEpisode(store, { runId: 'r', taskId: 't1', model: 'claude' });
      finishEpisode(store, refused, { status: 'ok', endStatus: 'refused', endDetail: 'refusal: category cyber: declined' });
      const plain = startEpisode(store, { runId: 'r', taskId: 't2', model: 'claude' });
      finishEpisode(store, plain, { status: 'infra_failure', errorCode: 'request_rejected' });
      const bad = startEpisode(store, { runId: 'r', taskId: 't3', model: 'claude' });
      expect(() => finishEpisode(store, bad, { status: 'ok', endStatus: 'declined' as never })).toThrow(/endStatus/);
      const [first, second] = episodesForRun(store, 'r');
      expect(first).toMatchObject({ taskId: 't1', endStatus: 'refused', endDetail: 'refusal: category cyber: declined' });
      expect(second).toMatchObject({ taskId: 't2', endStatus: null, endDetail: null, errorCode: 'request_rejected' });
    } finally {
      store.close();
    }
  });
});

describe('m3 summary end-status counts', () => {
  it("counts each prediction file's end_status, older records as unknown", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-end-status-'));
    const record = (id: string, end?: string) => ({ id, question: 'q', steps: [], final_reply: '', ...(end ? { end_status: end } : {}) });
    writeFileSync(
      path.join(dir, 'claude_test_mcp_fuzzy.json'),
      JSON.stringify([record('a', 'answered'), record('b', 'refused'), record('c', 'answered'), record('d')]),
    );
    writeFileSync(path.join(dir, 'notes.json'), '[]');
    const counts = endStatusCounts(dir);
    expect(counts).toEqual([{ model: 'claude', file: path.join(dir, 'claude_test_mcp_fuzzy.json'), counts: { answered: 2, refused: 1, unknown: 1 } }]);
    expect(formatEndStatusCounts(counts)).toEqual(['claude: answered 2, refused 1, unknown 1']);
  });
});
