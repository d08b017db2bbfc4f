// The shape of the run store as SQLite reports it (PRAGMA table_info / foreign_key_list), for
// merging shard stores: which tables hang off a run, by which column, and which integer key a
// copy must renumber. Read from the schema, not listed by hand, so a column or a child table a
// later migration adds is merged without a change here.
import { StoreError } from '../errors/index.js';
import { pragma, selectAll, type Store } from './connection.js';

export interface TableShape {
  name: string;
  columns: string[];
  /** The INTEGER PRIMARY KEY (a rowid alias): renumbered on copy. */
  integerKey: string | undefined;
  /** The foreign key that ties this table to its parent in the run tree. */
  parent: { table: string; column: string; to: string } | undefined;
}

interface ColumnInfo {
  name: string;
  type: string;
  pk: number;
}

interface ForeignKeyInfo {
  table: string;
  from: string;
  to: string | null;
}

function userTables(store: Store): string[] {
  const rows = selectAll(store, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") as Array<{
    name: string;
  }>;
  return rows.map((row) => row.name).filter((name) => name !== 'schema_migrations');
}

function shapeOf(store: Store, table: string): Omit<TableShape, 'parent'> & { keys: ForeignKeyInfo[] } {
  const columns = pragma(store, `table_info("${table}")`) as ColumnInfo[];
  const primary = columns.filter((column) => column.pk > 0);
  const only = primary.length === 1 ? primary[0] : undefined;
  const keys = pragma(store, `foreign_key_list("${table}")`) as ForeignKeyInfo[];
  return {
    name: table,
    columns: columns.map((column) => column.name),
    integerKey: only && only.type.toUpperCase() === 'INTEGER' ? only.name : undefined,
    keys,
  };
}

/**
 * Every table of the run tree (runs, and each table reaching it through one foreign key chain),
 * parents before children. A table with rows that are not tied to a run cannot be merged
 * without losing or duplicating them: its name comes back in `untied`.
 */
export function runTree(store: Store): { tables: TableShape[]; untied: string[] } {
  const shapes = userTables(store).map((table) => shapeOf(store, table));
  const tables: TableShape[] = [];
  const placed = new Set<string>();
  const root = shapes.find((shape) => shape.name === 'runs');
  if (!root) throw new StoreError(`run store ${store.file} has no runs table`);
  tables.push({ name: root.name, columns: root.columns, integerKey: undefined, parent: undefined });
  placed.add('runs');
  let grew = true;
  while (grew) {
    grew = false;
    for (const shape of shapes) {
      if (placed.has(shape.name)) continue;
      const inTree = shape.keys.filter((key) => placed.has(key.table));
      if (inTree.length === 0) continue;
      const [key] = inTree;
      if (inTree.length > 1 || !key)
        throw new StoreError(
          `run store ${store.file}: table ${shape.name} refers to ${inTree.map((entry) => entry.table).join(' and ')}; m3 merge copies a table under one parent only`,
        );
      const parentShape = shapes.find((candidate) => candidate.name === key.table);
      const to = key.to ?? parentShape?.integerKey ?? 'rowid';
      // Rows under a renumbered parent follow it by its integer key; another link could not be remapped.
      if (key.table !== 'runs' && to !== parentShape?.integerKey)
        throw new StoreError(`run store ${store.file}: table ${shape.name} refers to ${key.table}.${to}, not its integer key; m3 merge cannot renumber it`);
      tables.push({ name: shape.name, columns: shape.columns, integerKey: shape.integerKey, parent: { table: key.table, column: key.from, to } });
      placed.add(shape.name);
      grew = true;
    }
  }
  const untied = shapes.filter((shape) => !placed.has(shape.name)).map((shape) => shape.name);
  return { tables, untied };
}

/** Tables outside the run tree that hold rows in this store. */
export function untiedTablesWithRows(store: Store, untied: readonly string[]): string[] {
  return untied.filter((table) => selectAll(store, `SELECT 1 FROM "${table}" LIMIT 1`).length > 0);
}
