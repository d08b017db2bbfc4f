// Merging the stores of a run's shards into one store (m3 merge): the run row once, then every
// row that hangs off it (episodes, model calls, tool calls, task-level scores, and any table a
// later migration ties to them), renumbering integer keys. Columns are read from the schema,
// so a new column is copied without a change here. Re-running is safe: a row already there
// with the same content is skipped (its subtree must match in size), a different row for the
// same task is refused, and one run's rows land in one transaction or not at all.
import { StoreError } from '../errors/index.js';
import { type Store, selectAll, statement, writeTransaction } from './connection.js';
import { toJsonColumn } from './json-column.js';
import { runTree, untiedTablesWithRows, type TableShape } from './merge-schema.js';
import type { RunStatus } from './schemas.js';

type Row = Record<string, unknown>;

/** What the merged run row says; the rest of the row is copied from the first shard. */
interface MergedRunFields {
  runId: string;
  manifest: unknown;
  status: Exclude<RunStatus, 'running'>;
  startedAt: string;
  finishedAt: string | null;
}

export interface TableMergeCount {
  table: string;
  copied: number;
  /** Rows already in the target with the same content (an earlier merge of the same shard). */
  alreadyThere: number;
  /** Run-level rows of a shard (a row with a task_id column left NULL: a score over that shard only), not copied. */
  leftOut: number;
}

interface MergeContext {
  target: Store;
  source: Store;
  tree: TableShape[];
  counts: Map<string, TableMergeCount>;
  /** Task ids the target held for this run before the merge began, per table with a task_id column. */
  heldTasks: Map<string, Set<string>>;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function count(context: MergeContext, table: string): TableMergeCount {
  let entry = context.counts.get(table);
  if (!entry) {
    entry = { table, copied: 0, alreadyThere: 0, leftOut: 0 };
    context.counts.set(table, entry);
  }
  return entry;
}

function childrenOf(tree: readonly TableShape[], table: string): TableShape[] {
  return tree.filter((shape) => shape.parent?.table === table);
}

function rowsUnder(store: Store, shape: TableShape, key: unknown): Row[] {
  const parent = shape.parent as NonNullable<TableShape['parent']>;
  return selectAll(store, `SELECT * FROM ${quote(shape.name)} WHERE ${quote(parent.column)} IS ? ORDER BY rowid`, key) as Row[];
}

/** A target row equal in every column but the renumbered key (the parent column included, already mapped). */
function findSame(target: Store, shape: TableShape, row: Row): Row | undefined {
  const columns = shape.columns.filter((column) => column !== shape.integerKey);
  const where = columns.map((column) => `${quote(column)} IS ?`).join(' AND ');
  return selectAll(target, `SELECT * FROM ${quote(shape.name)} WHERE ${where} LIMIT 1`, ...columns.map((column) => row[column])).at(0) as Row | undefined;
}

function insertRow(target: Store, shape: TableShape, row: Row): unknown {
  const columns = shape.columns.filter((column) => column !== shape.integerKey && column in row);
  const sql = `INSERT INTO ${quote(shape.name)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
  const result = statement(target, sql).run(...columns.map((column) => row[column]));
  return shape.integerKey ? result.lastInsertRowid : undefined;
}

/** Row counts per table of a row's subtree, for checking that a skipped row's children are all there. */
function subtreeSize(store: Store, tree: readonly TableShape[], shape: TableShape, key: unknown, sizes = new Map<string, number>()): Map<string, number> {
  for (const child of childrenOf(tree, shape.name)) {
    const rows = rowsUnder(store, child, key);
    sizes.set(child.name, (sizes.get(child.name) ?? 0) + rows.length);
    if (child.integerKey) for (const row of rows) subtreeSize(store, tree, child, row[child.integerKey], sizes);
  }
  return sizes;
}

function sameSizes(a: Map<string, number>, b: Map<string, number>): boolean {
  return [...new Set([...a.keys(), ...b.keys()])].every((table) => (a.get(table) ?? 0) === (b.get(table) ?? 0));
}

/** Copies the rows under `sourceKey` (in the source) to hang under `targetKey` (in the target). */
function copyChildren(context: MergeContext, parent: TableShape, sourceKey: unknown, targetKey: unknown, checkSame: boolean): void {
  for (const shape of childrenOf(context.tree, parent.name)) {
    const link = shape.parent as NonNullable<TableShape['parent']>;
    for (const sourceRow of rowsUnder(context.source, shape, sourceKey)) {
      const row = { ...sourceRow, [link.column]: targetKey };
      const oldKey = shape.integerKey ? sourceRow[shape.integerKey] : undefined;
      if (checkSame && placeRow(context, shape, row, oldKey)) continue;
      const newKey = insertRow(context.target, shape, row);
      count(context, shape.name).copied += 1;
      if (shape.integerKey) copyChildren(context, shape, oldKey, newKey, false);
    }
  }
}

/**
 * For a row directly under the run: true when it needs no copy (already there with the same
 * content and subtree, or a run-level aggregate left out); throws on a different row for a task
 * the target already held.
 */
function placeRow(context: MergeContext, shape: TableShape, row: Row, oldKey: unknown): boolean {
  const taskId = shape.columns.includes('task_id') ? row.task_id : undefined;
  if (shape.columns.includes('task_id') && (taskId === null || taskId === undefined)) {
    count(context, shape.name).leftOut += 1;
    return true;
  }
  const same = findSame(context.target, shape, row);
  if (same) {
    const sameKey = shape.integerKey ? same[shape.integerKey] : undefined;
    if (shape.integerKey && !sameSizes(subtreeSize(context.source, context.tree, shape, oldKey), subtreeSize(context.target, context.tree, shape, sameKey)))
      throw new StoreError(
        `m3 merge: ${shape.name} row of task ${String(taskId)} (run ${String(row.run_id)}) is in both ${context.source.file} and ${context.target.file}, but their model and tool calls differ; merge into a fresh store`,
      );
    count(context, shape.name).alreadyThere += 1;
    return true;
  }
  if (typeof taskId === 'string' && context.heldTasks.get(shape.name)?.has(taskId))
    throw new StoreError(
      `m3 merge: task ${taskId} of run ${String(row.run_id)} is in both ${context.target.file} and ${context.source.file} (${shape.name}) with different content; shards must not overlap (was ${context.target.file} written by another run?)`,
    );
  return false;
}

function heldTasks(target: Store, tree: readonly TableShape[], runId: string): Map<string, Set<string>> {
  const held = new Map<string, Set<string>>();
  for (const shape of childrenOf(tree, 'runs').filter((entry) => entry.columns.includes('task_id'))) {
    const link = shape.parent as NonNullable<TableShape['parent']>;
    const rows = selectAll(
      target,
      `SELECT DISTINCT task_id FROM ${quote(shape.name)} WHERE ${quote(link.column)} = ? AND task_id IS NOT NULL`,
      runId,
    ) as Array<{
      task_id: string;
    }>;
    held.set(shape.name, new Set(rows.map((row) => row.task_id)));
  }
  return held;
}

function writeRunRow(target: Store, tree: readonly TableShape[], first: Store, fields: MergedRunFields): void {
  const runs = tree[0] as TableShape;
  const overrides: Row = {
    manifest: toJsonColumn(fields.manifest),
    status: fields.status,
    started_at: fields.startedAt,
    finished_at: fields.finishedAt,
  };
  // A lease names a process of the shard's machine; the merged run has no writer.
  for (const column of runs.columns.filter((name) => name.startsWith('lease_'))) overrides[column] = null;
  const existing = selectAll(target, 'SELECT run_id FROM runs WHERE run_id = ?', fields.runId).length > 0;
  if (existing) {
    const columns = Object.keys(overrides).filter((column) => runs.columns.includes(column));
    statement(target, `UPDATE runs SET ${columns.map((column) => `${quote(column)} = ?`).join(', ')} WHERE run_id = ?`).run(
      ...columns.map((column) => overrides[column]),
      fields.runId,
    );
    return;
  }
  const row = selectAll(first, 'SELECT * FROM runs WHERE run_id = ?', fields.runId).at(0) as Row | undefined;
  if (!row) throw new StoreError(`m3 merge: no run "${fields.runId}" in ${first.file}`);
  insertRow(target, runs, { ...row, ...overrides });
}

/** Refuses a shard store whose schema has columns or tables the target lacks (they would be lost). */
function checkSchemas(target: Store, tree: readonly TableShape[], source: Store): void {
  const sourceTree = runTree(source);
  for (const shape of sourceTree.tables) {
    const mine = tree.find((entry) => entry.name === shape.name);
    const lost = shape.columns.filter((column) => !mine?.columns.includes(column));
    if (!mine || lost.length > 0)
      throw new StoreError(
        `m3 merge: ${source.file} has ${mine ? `columns ${lost.join(', ')} of ${shape.name}` : `table ${shape.name}`} that ${target.file} lacks; open the target with this m3bench first`,
      );
  }
  const untied = untiedTablesWithRows(source, sourceTree.untied);
  if (untied.length > 0)
    throw new StoreError(`m3 merge: ${source.file} holds rows in ${untied.join(', ')}, which are not tied to a run; m3 merge cannot place them`);
}

/** Merges one run from its shard stores into `target`, in one transaction; returns per-table counts. */
export function mergeRunShards(target: Store, sources: readonly Store[], fields: MergedRunFields): TableMergeCount[] {
  const first = sources[0];
  if (!first) throw new StoreError('m3 merge: no shard store to merge');
  const { tables: tree } = runTree(target);
  for (const source of sources) checkSchemas(target, tree, source);
  const counts = new Map<string, TableMergeCount>();
  writeTransaction(target, `m3 merge of run ${fields.runId}`, () => {
    const held = heldTasks(target, tree, fields.runId);
    writeRunRow(target, tree, first, fields);
    for (const source of sources) {
      copyChildren({ target, source, tree, counts, heldTasks: held }, tree[0] as TableShape, fields.runId, fields.runId, true);
    }
  });
  return [...counts.values()];
}

/** Task ids with an episode (any trial or attempt) of `runId` in `store`. */
export function runTaskIds(store: Store, runId: string): string[] {
  const rows = selectAll(store, 'SELECT DISTINCT task_id FROM episodes WHERE run_id = ? ORDER BY task_id', runId) as Array<{ task_id: string }>;
  return rows.map((row) => row.task_id);
}
