// Group commit (openStore's groupCommit): the writes of one event-loop turn share a transaction
// that commits when the turn ends; each write is still atomic on its own, and close() commits
// what is pending. Checked through a second, real connection to the same SQLite file.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/errors/index.js';
import { createRun, episodesForRun, finishEpisode, openStore, startEpisode, type Store } from '../../src/store/index.js';
import { tempStoreFile } from './temp-store.js';

function openPair(): { writer: Store; reader: Store } {
  const file = tempStoreFile();
  const writer = openStore(file, { groupCommit: true });
  createRun(writer, { runId: 'r', modelSpec: 'openai:gpt-4o', modelLabel: 'gpt-4o' });
  return { writer, reader: openStore(file, { readonly: true }) };
}

const taskIds = (store: Store) => episodesForRun(store, 'r').map((episode) => episode.taskId);

describe('group commit', () => {
  it('commits the rows of one turn together when the turn ends', async () => {
    const { writer, reader } = openPair();
    await nextTurn();
    for (const taskId of ['a', 'b', 'c']) startEpisode(writer, { runId: 'r', taskId, model: 'openai:gpt-4o' });
    // The writer reads its own rows at once; another connection sees them after the turn.
    expect(taskIds(writer)).toEqual(['a', 'b', 'c']);
    expect(taskIds(reader)).toEqual([]);
    await nextTurn();
    expect(taskIds(reader)).toEqual(['a', 'b', 'c']);
    writer.close();
    reader.close();
  });

  it('keeps each write atomic: a failed write inside a group loses only itself', async () => {
    const { writer, reader } = openPair();
    const id = startEpisode(writer, { runId: 'r', taskId: 'a', model: 'openai:gpt-4o' });
    finishEpisode(writer, id, { status: 'ok' });
    expect(() => startEpisode(writer, { runId: 'missing', taskId: 'x', model: 'openai:gpt-4o' })).toThrow(/run "missing" does not exist/);
    expect(() => finishEpisode(writer, id, { status: 'ok' })).toThrow(/already finished with status "ok"/);
    startEpisode(writer, { runId: 'r', taskId: 'b', model: 'openai:gpt-4o' });
    await nextTurn();
    expect(episodesForRun(reader, 'r').map((episode) => [episode.taskId, episode.status])).toEqual([
      ['a', 'ok'],
      ['b', 'running'],
    ]);
    writer.close();
    reader.close();
  });

  it('commits pending rows on close, and a closed store refuses writes', () => {
    const { writer, reader } = openPair();
    startEpisode(writer, { runId: 'r', taskId: 'a', model: 'openai:gpt-4o' });
    writer.close();
    expect(taskIds(reader)).toEqual(['a']);
    expect(() => startEpisode(writer, { runId: 'r', taskId: 'b', model: 'openai:gpt-4o' })).toThrow(StoreError);
    reader.close();
  });

  it('without the option every write commits at once', () => {
    const file = tempStoreFile();
    const writer = openStore(file);
    createRun(writer, { runId: 'r', modelSpec: 'openai:gpt-4o', modelLabel: 'gpt-4o' });
    startEpisode(writer, { runId: 'r', taskId: 'a', model: 'openai:gpt-4o' });
    const reader = openStore(file, { readonly: true });
    expect(taskIds(reader)).toEqual(['a']);
    writer.close();
    reader.close();
  });
});
