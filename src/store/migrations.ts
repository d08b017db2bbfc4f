// Numbered schema migrations: `NNN-name.sql` files, applied in number order, each recorded in the
// `schema_migrations` ledger (and PRAGMA user_version = the highest applied number) inside the
// same transaction, so a crash never leaves half a migration.
//
// Ordering rule (written for parallel branches): numbers must be unique but may have gaps, so a
// branch can take a number well clear of its siblings' (the trials migration is 010). A store
// applies every file its ledger does not list, lowest number first, even one numbered below a
// migration it already has (a sibling branch merged later), so merge order never skips one. Two
// files with the same number are refused: one of the branches must renumber.
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

const ledgerSql = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`;

export function defaultMigrationsDir(): string {
  return fromRepo('src', 'store', 'migrations');
}

/** Reads the migration files, sorted by number; a repeated number is refused, gaps are allowed. */
export function loadMigrations(dir: string): Migration[] {
  if (!existsSync(dir)) {
    throw new StoreError(`run store migrations folder not found: ${dir}; the repository's src/store/migrations must ship with the package`);
  }
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  const migrations = files.map((name): Migration => {
    const match = migrationFileName.exec(name);
    if (!match) {
      throw new StoreError(`${path.join(dir, name)}: migration files must be named NNN-kebab-name.sql (e.g. 002-add-index.sql)`);
    }
    const file = path.join(dir, name);
    return { version: Number(match[1]), name: match[2] ?? name, file, sql: readFileSync(file, 'utf8') };
  });
  migrations.sort((a, b) => a.version - b.version);
  migrations.forEach((migration, index) => {
    const previous = migrations[index - 1];
    if (migration.version < 1) throw new StoreError(`${migration.file}: migration numbers start at 001`);
    if (previous && previous.version === migration.version) {
      throw new StoreError(
        `${migration.file}: migration number ${String(migration.version).padStart(3, '0')} is also used by ${path.basename(previous.file)}; renumber one of them (numbers must be unique, gaps are allowed)`,
      );
    }
  });
  if (migrations.length === 0) throw new StoreError(`${dir}: no migration files (NNN-name.sql) found`);
  return migrations;
}

/** The highest migration number: the schema version a fully migrated store reports. */
function latestVersion(migrations: readonly Migration[]): number {
  return migrations.reduce((highest, migration) => Math.max(highest, migration.version), 0);
}

function userVersion(db: Database.Database): number {
  return Number(db.pragma('user_version', { simple: true }));
}

function newerThanCode(file: string, version: number, latest: number): StoreError {
  return new StoreError(
    `run store ${file} has schema version ${version}, newer than this m3bench knows (${latest}); upgrade m3bench, or point --db at another file`,
  );
}

function hasLedger(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get() !== undefined;
}

/** Versions the store has applied (its ledger; none when it has no ledger yet). */
function appliedVersions(db: Database.Database): Set<number> {
  if (!hasLedger(db)) return new Set();
  return new Set((db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map((row) => row.version));
}

/**
 * The migrations a store still needs. A store without a ledger was written under the earlier
 * rule (numbers 1..user_version without gaps, all applied), so those count as applied.
 * Throws when the store has a version this code does not know.
 */
export function pendingMigrations(db: Database.Database, file: string, migrations: readonly Migration[]): Migration[] {
  const latest = latestVersion(migrations);
  const version = userVersion(db);
  if (version > latest) throw newerThanCode(file, version, latest);
  const ledger = hasLedger(db);
  const applied = ledger ? appliedVersions(db) : new Set(migrations.filter((migration) => migration.version <= version).map((migration) => migration.version));
  const known = new Set(migrations.map((migration) => migration.version));
  const unknown = [...applied].filter((entry) => !known.has(entry));
  if (unknown.length > 0) throw newerThanCode(file, Math.max(...unknown), latest);
  return migrations.filter((migration) => !applied.has(migration.version));
}

function recordLedger(db: Database.Database, migrations: readonly Migration[]): void {
  const insert = db.prepare('INSERT OR IGNORE INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of migrations) insert.run(migration.version, migration.name, new Date().toISOString());
}

/**
 * Applies every pending migration in one IMMEDIATE transaction and returns the final version.
 * The pending set is re-read under the write lock, so two processes opening a fresh file at the
 * same moment do not both apply 001.
 */
export function migrate(db: Database.Database, file: string, migrations: readonly Migration[]): number {
  if (hasLedger(db) && pendingMigrations(db, file, migrations).length === 0) return userVersion(db);
  const apply = db.transaction(() => {
    const pending = pendingMigrations(db, file, migrations);
    const legacy = !hasLedger(db);
    db.exec(ledgerSql);
    // A store from before the ledger: record what the earlier rule had applied.
    if (legacy)
      recordLedger(
        db,
        migrations.filter((migration) => !pending.includes(migration)),
      );
    for (const migration of pending) {
      try {
        db.exec(migration.sql);
      } catch (error) {
        throw new StoreError(`${migration.file}: migration ${migration.version} failed on ${file}: ${errorMessage(error)}`, { cause: error });
      }
      recordLedger(db, [migration]);
    }
    // PRAGMA takes no bound parameters; the version is an integer we produced.
    db.pragma(`user_version = ${Math.max(userVersion(db), ...[...appliedVersions(db)])}`);
  });
  apply.immediate();
  return userVersion(db);
}
