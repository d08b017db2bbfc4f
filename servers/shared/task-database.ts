// One SQLite database per task (`<workspace>/<name>.sqlite`, see
// src/core/task-database-file.ts for shared workspaces), so concurrent tasks never share state. The database is created, given its tables and seeded on the task's first
// call; later calls reopen the same file. A handle whose file was removed (a re-run emptied the
// workspace) is dropped and the database is built afresh.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { taskDatabaseFile } from '../../src/core/task-database-file.js';
import { callContextOf, NO_TASK, workspaceOf } from './call-context.js';
import { seedOfTask, type TaskSeed } from './radar-seed.js';

export type Db = Database.Database;

export interface TaskDatabaseSpec {
  /** File name without extension: `email` → `<workspace>/email.sqlite`. */
  name: string;
  /** CREATE TABLE statements. */
  schema: string;
  /** Writes the task's seed into the fresh tables. */
  seed: (db: Db, seed: TaskSeed) => void;
}

const open = new Map<string, Db>();

function create(file: string, spec: TaskDatabaseSpec, taskId: string): Db {
  // Validate the seed before any file exists, so a bad seed fails every call, not just the first.
  const seed = seedOfTask(taskId);
  const db = new Database(file);
  try {
    db.exec(spec.schema);
    db.transaction(() => spec.seed(db, seed))();
  } catch (error) {
    db.close();
    rmSync(file, { force: true });
    throw error;
  }
  return db;
}

/** The database of the task this call belongs to, with the task's seed loaded on first use. */
export function taskDatabase(extra: { _meta?: unknown } | undefined, spec: TaskDatabaseSpec): Db {
  const context = callContextOf(extra);
  const file = taskDatabaseFile({ workspace: workspaceOf(extra), taskId: context?.taskId ?? NO_TASK, runId: context?.runId }, spec.name);
  mkdirSync(path.dirname(file), { recursive: true });
  const cached = open.get(file);
  if (cached && existsSync(file)) return cached;
  cached?.close();
  open.delete(file);
  const db = existsSync(file) ? new Database(file) : create(file, spec, context?.taskId ?? NO_TASK);
  open.set(file, db);
  return db;
}
