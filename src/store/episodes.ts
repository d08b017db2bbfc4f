// Episodes: one task x model x trial x attempt. An episode is written as `running` when it
// starts and given its final status once, so a killed process leaves visible `running` rows
// that resume treats as unfinished.
import { StoreError } from '../errors/index.js';
import { type Store, selectAll, statement, writeTransaction } from './connection.js';
import { toJsonColumn, toOptional, toTextColumn, toTimeColumn } from './json-column.js';
import { forgetEpisodeRequests } from './request-chains.js';
import { episodeRowSchema, parseRows, type EpisodeRow } from './rows.js';
import {
  episodeFinishSchema,
  episodeStartSchema,
  parseInput,
  type EpisodeFinish,
  type EpisodeStart,
  type EpisodeStatus,
  type FailureKind,
  type FinalEpisodeStatus,
} from './schemas.js';

const insertEpisodeSql = `
  INSERT INTO episodes (run_id, task_id, model, trial, attempt, status, started_at, seed)
  VALUES (@runId, @taskId, @model, @trial, @attempt, 'running', @startedAt, @seed)`;

const nextAttemptSql = `
  SELECT COALESCE(MAX(attempt), 0) + 1 AS next FROM episodes
  WHERE run_id = ? AND task_id = ? AND model = ? AND trial = ?`;

/**
 * Records an episode as `running` and returns its id. Without an explicit `attempt` the next
 * free attempt number of (run, task, model, trial) is taken under the write lock, so a
 * requeued or resumed task never collides with its earlier attempts.
 */
export function startEpisode(store: Store, input: EpisodeStart): number {
  const episode = parseInput(episodeStartSchema, input, 'startEpisode');
  const where = `startEpisode(run ${episode.runId}, task ${episode.taskId}, model ${episode.model}, trial ${episode.trial})`;
  return writeTransaction(
    store,
    where,
    () => {
      const attempt =
        episode.attempt ?? (statement(store, nextAttemptSql).get(episode.runId, episode.taskId, episode.model, episode.trial) as { next: number }).next;
      const result = statement(store, insertEpisodeSql).run({
        runId: episode.runId,
        taskId: episode.taskId,
        model: episode.model,
        trial: episode.trial,
        attempt,
        startedAt: toTimeColumn(episode.startedAt),
        seed: toOptional(episode.seed),
      });
      return Number(result.lastInsertRowid);
    },
    (code) => {
      if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return `run "${episode.runId}" does not exist; call createRun() first`;
      if (code === 'SQLITE_CONSTRAINT_UNIQUE') return `attempt ${String(episode.attempt)} already exists; omit attempt to take the next free number`;
      return undefined;
    },
  );
}

/** Which side a final status blames; `timeout` needs the caller's verdict. */
function failureKindOf(status: FinalEpisodeStatus, given: FailureKind | undefined, where: string): FailureKind | null {
  const implied: Record<FinalEpisodeStatus, FailureKind | null | undefined> = { ok: null, model_failure: 'model', infra_failure: 'infra', timeout: undefined };
  const expected = implied[status];
  if (expected === undefined) {
    if (!given) throw new StoreError(`${where}: status "timeout" needs failureKind "model" (the model looped) or "infra" (a server or provider hung)`);
    return given;
  }
  if (given !== undefined && given !== expected) {
    throw new StoreError(`${where}: failureKind "${given}" contradicts status "${status}" (expected ${expected === null ? 'none' : `"${expected}"`})`);
  }
  return expected;
}

const finishEpisodeSql = `
  UPDATE episodes SET status = @status, failure_kind = @failureKind, error_code = @errorCode,
    error_message = @errorMessage, finished_at = @finishedAt, rounds = @rounds,
    tool_call_count = @toolCallCount, input_tokens = @inputTokens, output_tokens = @outputTokens,
    cached_tokens = @cachedTokens, cost_usd = @costUsd, saved_usd = @savedUsd, prediction = @prediction,
    prompt_hash = COALESCE(@promptHash, prompt_hash), end_status = @endStatus, end_detail = @endDetail
  WHERE id = @id AND status = 'running'`;

/**
 * Gives a running episode its final status, totals and prediction record. The row is read back
 * only to explain a failed update (read it with getEpisode): reading and parsing every finished
 * row again was a quarter of finishEpisode's time in a CPU profile of `npm run bench:harness`.
 */
export function finishEpisode(store: Store, episodeId: number, input: EpisodeFinish): void {
  const where = `finishEpisode(${episodeId})`;
  forgetEpisodeRequests(store, episodeId);
  const finish = parseInput(episodeFinishSchema, input, where);
  const failureKind = failureKindOf(finish.status, finish.failureKind, where);
  const result = writeTransaction(store, where, () =>
    statement(store, finishEpisodeSql).run({
      id: episodeId,
      status: finish.status,
      failureKind,
      errorCode: toOptional(finish.errorCode),
      errorMessage: toTextColumn(finish.errorMessage),
      finishedAt: toTimeColumn(finish.finishedAt),
      rounds: finish.rounds,
      toolCallCount: finish.toolCallCount,
      inputTokens: finish.usage.inputTokens,
      outputTokens: finish.usage.outputTokens,
      cachedTokens: finish.usage.cachedTokens,
      costUsd: toOptional(finish.costUsd),
      savedUsd: toOptional(finish.savedUsd),
      prediction: toJsonColumn(finish.prediction),
      promptHash: toOptional(finish.promptHash),
      endStatus: toOptional(finish.endStatus),
      endDetail: toTextColumn(finish.endDetail),
    }),
  );
  if (result.changes > 0) return;
  const episode = getEpisode(store, episodeId);
  if (!episode) throw new StoreError(`${where}: no episode ${episodeId} in run store ${store.file}; use the id startEpisode() returned`);
  throw new StoreError(`${where}: episode already finished with status "${episode.status}"; an episode is finished once (start a new attempt instead)`);
}

/** One episode by id (the live trace export reads each episode back once it is recorded). */
export function getEpisode(store: Store, episodeId: number): EpisodeRow | undefined {
  return parseRows(episodeRowSchema, selectAll(store, 'SELECT * FROM episodes WHERE id = ?', episodeId), 'episodes', store.file)[0];
}

export interface EpisodeFilter {
  model?: string;
  status?: EpisodeStatus;
  taskId?: string;
}

/** A run's episodes in the order they were started. */
export function episodesForRun(store: Store, runId: string, filter: EpisodeFilter = {}): EpisodeRow[] {
  const rows = selectAll(
    store,
    `SELECT * FROM episodes
      WHERE run_id = @runId AND (@model IS NULL OR model = @model)
        AND (@status IS NULL OR status = @status) AND (@taskId IS NULL OR task_id = @taskId)
      ORDER BY id`,
    { runId, model: filter.model ?? null, status: filter.status ?? null, taskId: filter.taskId ?? null },
  );
  return parseRows(episodeRowSchema, rows, 'episodes', store.file);
}

/**
 * Task ids that `--resume` may skip for this run, model and trial (default 1): some attempt
 * reached a verdict on the model (`ok`, `model_failure`, or a `timeout` blamed on the model).
 * Infrastructure failures and episodes left `running` by a killed process do not count, so a
 * resumed run gives those tasks another attempt. Sorted, without duplicates.
 */
export function finishedTaskIds(store: Store, runId: string, model: string, options: { trial?: number } = {}): string[] {
  const rows = selectAll(
    store,
    `SELECT DISTINCT task_id FROM episodes
      WHERE run_id = ? AND model = ? AND trial = ?
        AND status IN ('ok', 'model_failure', 'timeout') AND failure_kind IS NOT 'infra'
      ORDER BY task_id`,
    runId,
    model,
    options.trial ?? 1,
  ) as Array<{ task_id: string }>;
  return rows.map((row) => row.task_id);
}

const closeAbandonedSql = `
  UPDATE episodes SET status = 'infra_failure', failure_kind = 'infra', error_code = 'interrupted',
    error_message = @message, finished_at = @finishedAt
  WHERE run_id = @runId AND status = 'running'`;

/**
 * Closes the episodes of a run still marked `running` as infrastructure failures with code
 * `interrupted`: attempts a killed or stopped process never finished. Only the holder of the
 * run's lease may call this (nobody else is writing those episodes). Returns how many closed.
 */
export function closeAbandonedEpisodes(store: Store, runId: string, message: string, finishedAt?: Date): number {
  const result = writeTransaction(store, `closeAbandonedEpisodes(${runId})`, () =>
    statement(store, closeAbandonedSql).run({ runId, message, finishedAt: toTimeColumn(finishedAt) }),
  );
  return result.changes;
}
