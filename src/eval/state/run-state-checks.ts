// Runs state checks (src/tasks/state-check.ts) on the databases a task left behind, read-only. A
// database that was never created (the agent never called that server) has no rows.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { taskDatabaseFile } from '../../core/task-database-file.js';
import { describeStateCheck, STATE_TABLES, type Condition, type StateCheck } from '../../tasks/state-check.js';

export interface StateCheckOutcome {
  check: string;
  found: number;
  /** Undefined when the check holds. */
  problem?: string;
}

/** Which task's databases to read: the call context the servers saw. */
export interface TaskState {
  workspace: string;
  taskId: string;
  runId?: string;
}

function sqlOf(column: string, value: Condition): { sql: string; params: unknown[] } {
  const plain = (item: string | number | boolean) => (typeof item === 'boolean' ? (item ? 1 : 0) : item);
  if (typeof value !== 'object') return { sql: `"${column}" = ?`, params: [plain(value)] };
  if ('contains' in value) return { sql: `instr(lower("${column}"), lower(?)) > 0`, params: [value.contains] };
  if ('not' in value) return { sql: `"${column}" != ?`, params: [plain(value.not)] };
  if ('before' in value) return { sql: `"${column}" < ?`, params: [value.before] };
  return { sql: `"${column}" > ?`, params: [value.after] };
}

function countRows(db: Database.Database, check: StateCheck): number {
  const table = STATE_TABLES[check.db];
  const columns = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((row) => row.name));
  const unknown = Object.keys(check.where).filter((column) => !columns.has(column));
  if (unknown.length > 0) throw new Error(`unknown column(s) ${unknown.join(', ')} of ${table} (columns: ${[...columns].join(', ')})`);
  const parts = Object.entries(check.where).map(([column, value]) => sqlOf(column, value));
  const where = parts.length > 0 ? ` WHERE ${parts.map((part) => part.sql).join(' AND ')}` : '';
  const row = db.prepare(`SELECT count(*) AS n FROM ${table}${where}`).get(...parts.flatMap((part) => part.params)) as { n: number };
  return row.n;
}

function judge(check: StateCheck, found: number): string | undefined {
  if (check.count !== undefined && found !== check.count) return `expected exactly ${check.count}, found ${found}`;
  if (check.atLeast !== undefined && found < check.atLeast) return `expected at least ${check.atLeast}, found ${found}`;
  return undefined;
}

export function runStateChecks(state: TaskState, checks: readonly StateCheck[]): StateCheckOutcome[] {
  const open = new Map<string, Database.Database | undefined>();
  const dbOf = (name: string) => {
    if (!open.has(name)) {
      const file = taskDatabaseFile(state, name);
      open.set(name, existsSync(file) ? new Database(file, { readonly: true, fileMustExist: true }) : undefined);
    }
    return open.get(name);
  };
  try {
    return checks.map((check) => {
      const label = describeStateCheck(check);
      const db = dbOf(check.db);
      if (!db) {
        const problem = judge(check, 0);
        return { check: label, found: 0, ...(problem ? { problem: `${problem} (no ${check.db} database: the task never called that server)` } : {}) };
      }
      try {
        const found = countRows(db, check);
        const problem = judge(check, found);
        return { check: label, found, ...(problem ? { problem } : {}) };
      } catch (error) {
        return { check: label, found: 0, problem: error instanceof Error ? error.message : String(error) };
      }
    });
  } finally {
    for (const db of open.values()) db?.close();
  }
}
