// Numbered schema migrations: `NNN-name.sql` files applied in order, each recorded by bumping
// PRAGMA user_version inside the same transaction, so a crash never leaves half a migration.
// The files are read from the repository (tsc does not copy .sql files to dist/).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { fromRepo } from '../config/paths.js';
import { StoreError, errorMessage } from '../errors/index.js';

export interface Migration {
  version: number;
  name: string;
  file: string;
  sql: string;
}

const migrationFileName = /^(\d{3})-([a-z0-9][a-z0-9-]*)\.sql$/;

export function defaultMigrationsDir(): string {
  return fromRepo('src', 'store', 'migrations');
}

/** Reads the migration files; their numbers must run 1, 2, 3, ... without gaps or repeats. */
export function loadMigrations(dir: string): Migration[] {
  if (!existsSync(dir)) {
    throw new StoreError(`run store migrations folder not found: ${dir}; the repository's src/store/migrations must ship with the package`);
  }
  const files = readdirSync(dir).filter((name) => name.endsWith('.sql')).sort();
  const migrations = files.map((name): Migration => {
    const match = migrationFileName.exec(name);
    if (!match) {
      throw new StoreError(`${path.join(dir, name)}: migration files must be named NNN-kebab-name.sql (e.g. 002-add-index.sql)`);
    }
    const file = path.join(dir, name);
    return { version: Number(match[1]), name: match[2] ?? name, file, sql: readFileSync(file, 'utf8') };
  });
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new StoreError(`${migration.file}: expected migration number ${String(index + 1).padStart(3, '0')} here; numbers must run from 001 without gaps or repeats`);
    }
  });
  if (migrations.length === 0) throw new StoreError(`${dir}: no migration files (NNN-name.sql) found`);
  return migrations;
}

function userVersion(db: Database.Database): number {
  return Number(db.pragma('user_version', { simple: true }));
}

function newerThanCode(file: string, version: number, latest: number): StoreError {
  return new StoreError(
    `run store ${file} has schema version ${version}, newer than this m3bench knows (${latest}); upgrade m3bench, or point --db at another file`,
  );
}

/**
 * Applies every pending migration in one IMMEDIATE transaction and returns the final version.
 * The version is re-read under the write lock, so two processes opening a fresh file at the
 * same moment do not both apply 001.
 */
export function migrate(db: Database.Database, file: string, migrations: readonly Migration[]): number {
  const latest = migrations.length;
  const before = userVersion(db);
  if (before > latest) throw newerThanCode(file, before, latest);
  if (before === latest) return latest;
  const apply = db.transaction(() => {
    const current = userVersion(db);
    if (current > latest) throw newerThanCode(file, current, latest);
    for (const migration of migrations.slice(current)) {
      try {
        db.exec(migration.sql);
      } catch (error) {
        throw new StoreError(`${migration.file}: migration ${migration.version} failed on ${file}: ${errorMessage(error)}`, { cause: error });
      }
      // PRAGMA takes no bound parameters; the version is an integer we produced.
      db.pragma(`user_version = ${migration.version}`);
    }
  });
  apply.immediate();
  return userVersion(db);
}
