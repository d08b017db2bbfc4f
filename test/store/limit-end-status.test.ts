// Migration 018: the end status column accepts the three limit statuses (a task stopped by
// m3 run --token-limit, --message-limit or --cost-limit), and a store written before it keeps its
// episodes' statuses and their model calls (the column is replaced, the table is not rebuilt).
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createRun,
  defaultMigrationsDir,
  episodesForRun,
  finishEpisode,
  modelCallsForEpisode,
  openStore,
  recordModelCall,
  startEpisode,
} from '../../src/store/index.js';
import { tempStoreFile } from './temp-store.js';

/**
 * A folder holding the repository's migrations but `without`: a store written before that one
 * (later ones applied, as on a sibling branch merged first), which today's store code can write to.
 */
function migrationsWithout(without: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-migrations-'));
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(defaultMigrationsDir()).filter((file) => /^\d{3}-.*\.sql$/.test(file) && Number(file.slice(0, 3)) !== without))
    copyFileSync(path.join(defaultMigrationsDir(), name), path.join(dir, name));
  return dir;
}

describe('limit end statuses (migration 018)', () => {
  it('keeps the statuses and model calls of a store written before it, and accepts the limit statuses after it', () => {
    const file = tempStoreFile();
    const old = openStore(file, { migrationsDir: migrationsWithout(18) });
    createRun(old, { runId: 'r', modelSpec: 'openai:gpt-4o', modelLabel: 'gpt-4o', configHash: 'c' });
    const refused = startEpisode(old, { runId: 'r', taskId: 't1', model: 'gpt-4o' });
    recordModelCall(old, { episodeId: refused, round: 1, purpose: 'work', usage: { inputTokens: 900, outputTokens: 40, cachedTokens: 0 } });
    finishEpisode(old, refused, { status: 'ok', endStatus: 'refused', endDetail: 'declined' });
    const early = startEpisode(old, { runId: 'r', taskId: 't2', model: 'gpt-4o' });
    // Before 018 the column refuses a limit status.
    expect(() => finishEpisode(old, early, { status: 'ok', endStatus: 'limit_tokens' })).toThrow(/CHECK constraint/);
    old.close();

    const store = openStore(file);
    try {
      const limited = startEpisode(store, { runId: 'r', taskId: 't3', model: 'gpt-4o' });
      finishEpisode(store, limited, { status: 'ok', endStatus: 'limit_tokens', endDetail: '1,200 tokens reached the limit of 1,000' });
      const episodes = episodesForRun(store, 'r');
      expect(episodes.find((episode) => episode.taskId === 't1')).toMatchObject({ endStatus: 'refused', endDetail: 'declined' });
      expect(episodes.find((episode) => episode.taskId === 't3')).toMatchObject({ endStatus: 'limit_tokens' });
      expect(modelCallsForEpisode(store, refused)).toHaveLength(1);
      expect(() => finishEpisode(store, early, { status: 'ok', endStatus: 'limit_dollars' as never })).toThrow(/endStatus/);
    } finally {
      store.close();
    }
  });
});
