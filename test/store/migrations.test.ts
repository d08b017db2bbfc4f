import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/errors/index.js';
import { pragma } from '../../src/store/connection.js';
import { checkIntegrity, createRun, defaultMigrationsDir, loadMigrations, openStore } from '../../src/store/index.js';
import { tempDir, tempStoreFile } from './temp-store.js';

// The schema version of a migrated store is the highest migration number (numbers may have gaps).
const latest = Math.max(
  ...readdirSync(defaultMigrationsDir())
    .filter((name) => name.endsWith('.sql'))
    .map((name) => Number(name.slice(0, 3))),
);

function tableNames(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map((row) => row.name);
  } finally {
    db.close();
  }
}

/** Opens for writing (migrating), closes, and returns the schema version it reported. */
function openedVersion(file: string, migrationsDir: string): number {
  const store = openStore(file, { migrationsDir });
  store.close();
  return store.schemaVersion;
}

function copyMigrations(target: string): void {
  mkdirSync(target, { recursive: true });
  for (const migration of loadMigrations(defaultMigrationsDir())) writeFileSync(path.join(target, path.basename(migration.file)), migration.sql);
}

describe('openStore and migrations', () => {
  it('creates the parent folders and migrates an empty file to the latest version', () => {
    const file = tempStoreFile();
    const store = openStore(file);
    expect(existsSync(file)).toBe(true);
    expect(store.schemaVersion).toBe(latest);
    expect(pragma(store, 'user_version')).toEqual([{ user_version: latest }]);
    store.close();
    expect(tableNames(file)).toEqual([
      'episodes',
      'model_calls',
      'provider_batch_requests',
      'provider_batches',
      'runs',
      'schema_migrations',
      'scores',
      'tool_calls',
    ]);
  });

  it('sets WAL, synchronous NORMAL, foreign keys, a busy timeout and a 2 MiB page cache', () => {
    const store = openStore(tempStoreFile(), { busyTimeoutMs: 1234 });
    expect(pragma(store, 'journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    expect(pragma(store, 'synchronous')).toEqual([{ synchronous: 1 }]);
    expect(pragma(store, 'foreign_keys')).toEqual([{ foreign_keys: 1 }]);
    expect(pragma(store, 'busy_timeout')).toEqual([{ timeout: 1234 }]);
    // not better-sqlite3's 16 MB, which a long run filled with the pages it wrote (src/store/connection.ts)
    expect(pragma(store, 'cache_size')).toEqual([{ cache_size: -2048 }]);
    expect(checkIntegrity(store)).toEqual(['ok']);
    store.close();
  });

  it("waits busyTimeoutMs for another connection's write lock, then fails with a clear message", () => {
    const file = tempStoreFile();
    const store = openStore(file, { busyTimeoutMs: 300 });
    const other = new Database(file);
    other.prepare('BEGIN IMMEDIATE').run();
    const started = Date.now();
    expect(() => createRun(store, { runId: 'r', modelSpec: 'a:b', modelLabel: 'b' })).toThrow(
      /createRun\(r\) failed on run store .*held the write lock for more than 300 ms/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    other.prepare('ROLLBACK').run();
    other.close();
    expect(createRun(store, { runId: 'r', modelSpec: 'a:b', modelLabel: 'b' }).runId).toBe('r');
    store.close();
  });

  it('reopens idempotently and keeps the data', () => {
    const file = tempStoreFile();
    const first = openStore(file);
    createRun(first, { runId: 'r1', modelSpec: 'replay:gt', modelLabel: 'gt' });
    first.close();
    const second = openStore(file);
    expect(second.schemaVersion).toBe(latest);
    second.close();
    const third = openStore(file, { readonly: true });
    expect(third.readonly).toBe(true);
    expect(third.schemaVersion).toBe(latest);
    third.close();
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT run_id FROM runs').all()).toEqual([{ run_id: 'r1' }]);
    db.close();
  });

  it('refuses a store written by a newer m3bench, naming the file and both versions', () => {
    const file = tempStoreFile();
    openStore(file).close();
    const db = new Database(file);
    db.pragma(`user_version = ${latest + 5}`);
    db.close();
    for (const readonly of [false, true]) {
      let caught: unknown;
      try {
        openStore(file, { readonly });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(StoreError);
      expect((caught as Error).message).toContain(file);
      expect((caught as Error).message).toContain(`schema version ${latest + 5}, newer than this m3bench knows (${latest})`);
    }
  });

  it('applies a later migration to an older store, in order, exactly once', () => {
    const dir = tempDir();
    const migrations = path.join(dir, 'migrations');
    copyMigrations(migrations);
    const file = path.join(dir, 'runs.sqlite');
    openStore(file, { migrationsDir: migrations }).close();
    const next = String(latest + 1).padStart(3, '0');
    writeFileSync(path.join(migrations, `${next}-add-notes.sql`), 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);');
    const upgraded = openStore(file, { migrationsDir: migrations });
    expect(upgraded.schemaVersion).toBe(latest + 1);
    upgraded.close();
    // A second open must not try to create the table again.
    openStore(file, { migrationsDir: migrations }).close();
    expect(tableNames(file)).toContain('notes');
    // The code's own migrations are now older than the file: a clear error, not a silent downgrade.
    expect(() => openStore(file)).toThrow(/newer than this m3bench knows/);
  });

  it('rolls back a failing migration completely', () => {
    const dir = tempDir();
    const migrations = path.join(dir, 'migrations');
    copyMigrations(migrations);
    const next = String(latest + 1).padStart(3, '0');
    writeFileSync(path.join(migrations, `${next}-broken.sql`), 'CREATE TABLE half (id INTEGER);\nCREATE TABLE oops (;');
    const file = path.join(dir, 'runs.sqlite');
    expect(() => openStore(file, { migrationsDir: migrations })).toThrow(new RegExp(`${next}-broken\\.sql: migration ${latest + 1} failed`));
    // Nothing of the failed batch stays: not even the earlier migrations of the same open.
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    db.close();
    expect(tableNames(file)).toEqual([]);
  });

  it('allows gaps, refuses a repeated number or a bad name', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, '001-first.sql'), 'SELECT 1;');
    writeFileSync(path.join(dir, '003-third.sql'), 'SELECT 1;');
    expect(loadMigrations(dir).map((migration) => migration.version)).toEqual([1, 3]);
    writeFileSync(path.join(dir, '003-other-branch.sql'), 'SELECT 1;');
    expect(() => loadMigrations(dir)).toThrow(/003-third\.sql: migration number 003 is also used by 003-other-branch\.sql; renumber one/);
    const other = tempDir();
    writeFileSync(path.join(other, 'init.sql'), 'SELECT 1;');
    expect(() => loadMigrations(other)).toThrow(/must be named NNN-kebab-name\.sql/);
    expect(() => loadMigrations(path.join(other, 'missing'))).toThrow(/migrations folder not found/);
  });

  it('applies a migration numbered below one already applied (a branch merged later), once', () => {
    const dir = tempDir();
    const migrations = path.join(dir, 'migrations');
    mkdirSync(migrations);
    writeFileSync(path.join(migrations, '001-base.sql'), 'CREATE TABLE base (id INTEGER PRIMARY KEY);');
    writeFileSync(path.join(migrations, '010-late-number.sql'), 'ALTER TABLE base ADD COLUMN late TEXT;');
    const file = path.join(dir, 'runs.sqlite');
    expect(openedVersion(file, migrations)).toBe(10);
    writeFileSync(path.join(migrations, '003-merged-later.sql'), 'ALTER TABLE base ADD COLUMN merged TEXT;');
    // A read-only open names what is missing instead of reading a half-migrated schema.
    expect(() => openStore(file, { migrationsDir: migrations, readonly: true })).toThrow(/lacks migration\(s\) 003-merged-later\.sql/);
    expect(openedVersion(file, migrations)).toBe(10);
    openStore(file, { migrationsDir: migrations }).close();
    const db = new Database(file, { readonly: true });
    expect((db.prepare('PRAGMA table_info(base)').all() as Array<{ name: string }>).map((column) => column.name)).toEqual(['id', 'late', 'merged']);
    expect(db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all()).toEqual([
      { version: 1, name: 'base' },
      { version: 3, name: 'merged-later' },
      { version: 10, name: 'late-number' },
    ]);
    db.close();
  });

  it('takes a store from before the ledger as having applied 1..user_version', () => {
    const dir = tempDir();
    const migrations = path.join(dir, 'migrations');
    mkdirSync(migrations);
    writeFileSync(path.join(migrations, '001-base.sql'), 'CREATE TABLE base (id INTEGER PRIMARY KEY);');
    writeFileSync(path.join(migrations, '002-second.sql'), 'ALTER TABLE base ADD COLUMN second TEXT;');
    const file = path.join(dir, 'runs.sqlite');
    const legacy = new Database(file);
    legacy.exec('CREATE TABLE base (id INTEGER PRIMARY KEY);');
    legacy.pragma('user_version = 1');
    legacy.close();
    expect(openedVersion(file, migrations)).toBe(2);
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT version FROM schema_migrations ORDER BY version').all()).toEqual([{ version: 1 }, { version: 2 }]);
    expect((db.prepare('PRAGMA table_info(base)').all() as Array<{ name: string }>).map((column) => column.name)).toEqual(['id', 'second']);
    db.close();
  });

  it('opens read-only without creating anything and refuses writes clearly', () => {
    const missing = tempStoreFile();
    expect(() => openStore(missing, { readonly: true })).toThrow(/cannot open run store .*never creates the file/);
    expect(existsSync(path.dirname(missing))).toBe(false);
    const file = tempStoreFile();
    openStore(file).close();
    const store = openStore(file, { readonly: true });
    expect(() => createRun(store, { runId: 'r', modelSpec: 'a:b', modelLabel: 'b' })).toThrow(/opened read-only/);
    store.close();
    expect(() => createRun(store, { runId: 'r', modelSpec: 'a:b', modelLabel: 'b' })).toThrow(/is closed/);
  });
});
