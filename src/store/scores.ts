// Scores written by the evaluators (step, call, final), per task or as aggregates (task null).
// A score belongs to a stored run, to a model label (evaluations of result files), or both.
// Writing the same (owner, task, level, metric) again replaces the value: re-evaluation is safe.
import { type Store, selectAll, statement, writeTransaction } from './connection.js';
import { toJsonColumn, toOptional, toTimeColumn } from './json-column.js';
import { parseRows, scoreRowSchema, type ScoreRow } from './rows.js';
import { parseInput, scoreInputSchema, type ScoreInput, type ScoreLevel } from './schemas.js';

// OR REPLACE resolves conflicts on the scores_identity expression index (run, label, task, level, metric).
const insertScoreSql = `
  INSERT OR REPLACE INTO scores (run_id, model_label, task_id, level, metric, value, extra, created_at)
  VALUES (@runId, @modelLabel, @taskId, @level, @metric, @value, @extra, @createdAt)`;

/** Stores a batch of scores in one transaction; returns how many rows were written. */
export function recordScores(store: Store, inputs: readonly ScoreInput[]): number {
  const rows = inputs.map((input, index) => {
    const score = parseInput(scoreInputSchema, input, `recordScores[${index}]`);
    return {
      runId: toOptional(score.runId),
      modelLabel: toOptional(score.modelLabel),
      taskId: score.taskId ?? null,
      level: score.level,
      metric: score.metric,
      value: score.value,
      extra: toJsonColumn(score.extra),
      createdAt: toTimeColumn(score.createdAt),
    };
  });
  if (rows.length === 0) return 0;
  return writeTransaction(
    store,
    `recordScores(${rows.length} scores)`,
    () => {
      for (const row of rows) statement(store, insertScoreSql).run(row);
      return rows.length;
    },
    (code) => (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ? 'a score names a runId that is not stored; create the run first or use modelLabel alone' : undefined),
  );
}

export interface ScoreFilter {
  runId?: string;
  modelLabel?: string;
  level?: ScoreLevel;
  metric?: string;
  /** `null` selects aggregate scores only. */
  taskId?: string | null;
}

/** Scores matching every given field, ordered by level, metric and task (aggregates first). */
export function scoresFor(store: Store, filter: ScoreFilter = {}): ScoreRow[] {
  const rows = selectAll(
    store,
    `SELECT * FROM scores
      WHERE (@runId IS NULL OR run_id = @runId) AND (@modelLabel IS NULL OR model_label = @modelLabel)
        AND (@level IS NULL OR level = @level) AND (@metric IS NULL OR metric = @metric)
        AND (@anyTask = 1 OR task_id IS @taskId)
      ORDER BY level, metric, task_id IS NOT NULL, task_id`,
    {
      runId: filter.runId ?? null,
      modelLabel: filter.modelLabel ?? null,
      level: filter.level ?? null,
      metric: filter.metric ?? null,
      anyTask: filter.taskId === undefined ? 1 : 0,
      taskId: filter.taskId ?? null,
    },
  );
  return parseRows(scoreRowSchema, rows, 'scores', store.file);
}
