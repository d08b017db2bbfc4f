// Runs: one row per benchmark invocation, with everything needed to say later exactly what ran
// (config hash, git commit, package versions, switches, tool surface, asset manifest, seed).
import { StoreError } from '../errors/index.js';
import { type Store, selectAll, statement, writeTransaction } from './connection.js';
import { toJsonColumn, toOptional, toTimeColumn } from './json-column.js';
import { parseRows, runRowSchema, type RunRow } from './rows.js';
import { parseInput, runInputSchema, runStatusSchema, type RunInput, type RunStatus } from './schemas.js';

const insertRunSql = `
  INSERT INTO runs (run_id, model_spec, model_label, started_at, status, config_hash, git_commit,
    package_versions, switches, tools_hash, tool_surface, manifest, seed, task_file, gt_file,
    batch_id, condition, trials)
  VALUES (@runId, @modelSpec, @modelLabel, @startedAt, 'running', @configHash, @gitCommit,
    @packageVersions, @switches, @toolsHash, @toolSurface, @manifest, @seed, @taskFile, @gtFile,
    @batchId, @condition, @trials)`;

/** Records a new run in status `running`. A run id that already exists is an error. */
export function createRun(store: Store, input: RunInput): RunRow {
  const run = parseInput(runInputSchema, input, 'createRun');
  writeTransaction(
    store,
    `createRun(${run.runId})`,
    () =>
      statement(store, insertRunSql).run({
        runId: run.runId,
        modelSpec: run.modelSpec,
        modelLabel: run.modelLabel,
        startedAt: toTimeColumn(run.startedAt),
        configHash: toOptional(run.configHash),
        gitCommit: toOptional(run.gitCommit),
        packageVersions: toJsonColumn(run.packageVersions),
        switches: toJsonColumn(run.switches),
        toolsHash: toOptional(run.toolsHash),
        toolSurface: toJsonColumn(run.toolSurface),
        manifest: toJsonColumn(run.manifest),
        seed: toOptional(run.seed),
        taskFile: toOptional(run.taskFile),
        gtFile: toOptional(run.gtFile),
        batchId: toOptional(run.batchId),
        condition: run.condition,
        trials: run.trials,
      }),
    (code) =>
      code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
        ? `run id "${run.runId}" already exists; choose another M3_RUN_ID, or resume that run instead of creating it`
        : undefined,
  );
  return requireRun(store, run.runId, 'createRun');
}

/** Marks a run as ended (`finished`, `failed` or `interrupted`) and stamps its end time. */
export function finishRun(store: Store, runId: string, status: Exclude<RunStatus, 'running'>, finishedAt?: Date): RunRow {
  const parsed = parseInput(runStatusSchema.exclude(['running']), status, `finishRun(${runId}).status`);
  const result = writeTransaction(store, `finishRun(${runId})`, () =>
    statement(store, 'UPDATE runs SET status = ?, finished_at = ? WHERE run_id = ?').run(parsed, toTimeColumn(finishedAt), runId),
  );
  if (result.changes === 0) throw unknownRun(store, runId, 'finishRun');
  return requireRun(store, runId, 'finishRun');
}

/**
 * Replaces a run's manifest (the runner completes it when the run ends: counts, failures,
 * seeds, resolved model ids, the task-set hash) and, on a resume, its trial count.
 */
export function updateRunManifest(store: Store, runId: string, manifest: unknown, trials?: number): RunRow {
  const result = writeTransaction(store, `updateRunManifest(${runId})`, () =>
    statement(store, 'UPDATE runs SET manifest = ?, trials = COALESCE(?, trials) WHERE run_id = ?').run(toJsonColumn(manifest), trials ?? null, runId),
  );
  if (result.changes === 0) throw unknownRun(store, runId, 'updateRunManifest');
  return requireRun(store, runId, 'updateRunManifest');
}

/** Marks a resumed run as running again and clears its end time. */
export function reopenRun(store: Store, runId: string): RunRow {
  const result = writeTransaction(store, `reopenRun(${runId})`, () =>
    statement(store, "UPDATE runs SET status = 'running', finished_at = NULL WHERE run_id = ?").run(runId),
  );
  if (result.changes === 0) throw unknownRun(store, runId, 'reopenRun');
  return requireRun(store, runId, 'reopenRun');
}

export function getRun(store: Store, runId: string): RunRow | undefined {
  return parseRows(runRowSchema, selectAll(store, 'SELECT * FROM runs WHERE run_id = ?', runId), 'runs', store.file)[0];
}

export interface ListRunsOptions {
  /** Only runs whose model label matches exactly. */
  modelLabel?: string;
  status?: RunStatus;
  /** Newest first; at most this many. */
  limit?: number;
}

/** Runs, newest first. */
export function listRuns(store: Store, options: ListRunsOptions = {}): RunRow[] {
  const rows = selectAll(
    store,
    `SELECT * FROM runs
      WHERE (@modelLabel IS NULL OR model_label = @modelLabel) AND (@status IS NULL OR status = @status)
      ORDER BY started_at DESC, run_id DESC
      LIMIT @limit`,
    { modelLabel: options.modelLabel ?? null, status: options.status ?? null, limit: options.limit ?? -1 },
  );
  return parseRows(runRowSchema, rows, 'runs', store.file);
}

function requireRun(store: Store, runId: string, where: string): RunRow {
  const run = getRun(store, runId);
  if (!run) throw unknownRun(store, runId, where);
  return run;
}

function unknownRun(store: Store, runId: string, where: string): StoreError {
  return new StoreError(`${where}: no run "${runId}" in run store ${store.file}; check the run id, or create the run first with createRun()`);
}
