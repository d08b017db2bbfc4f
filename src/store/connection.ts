// The run store's connection seam: the only place that loads better-sqlite3. Opening a store
// sets the pragmas that let several benchmark processes write one file (WAL, busy timeout),
// applies pending migrations, and hands back an opaque handle; SQL stays inside src/store.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { StoreError, errorMessage } from '../errors/index.js';
import { defaultMigrationsDir, loadMigrations, migrate, pendingMigrations, type Migration } from './migrations.js';

export interface OpenStoreOptions {
  /** Opens without writing: no migration, no pragma changes; the file must exist. */
  readonly?: boolean;
  /** How long a writer waits for another process's lock before failing (ms). */
  busyTimeoutMs?: number;
  /** Folder of numbered `.sql` migrations; defaults to `src/store/migrations` in the repo. */
  migrationsDir?: string;
  /**
   * Group commit: the writes made in one turn of the event loop share one transaction, committed
   * when the turn ends (setImmediate). Each write stays atomic (a savepoint inside the group).
   * A batch of many concurrent tasks then pays one commit per turn instead of one per row; the
   * price is that another connection sees the rows a turn later and a process killed mid-turn
   * loses that turn's rows. Only for a process that is the sole writer of its rows (`m3 run`).
   */
  groupCommit?: boolean;
}

/** An open run store. Pass it to the typed functions of this module; close it when done. */
export interface Store {
  readonly file: string;
  readonly readonly: boolean;
  /** Schema version (PRAGMA user_version) after opening. */
  readonly schemaVersion: number;
  close(): void;
}

interface Handle {
  db: Database.Database;
  statements: Map<string, Database.Statement>;
  busyTimeoutMs: number;
  control: TransactionControl;
  groupCommit: boolean;
  /** A group commit that failed after its writes had returned: reported by the next write or close. */
  lostGroup?: unknown;
  /**
   * Set once a group was lost: every later write fails with it (the rows of a lost turn are gone,
   * so a later row that refers to them would fail with a misleading message instead).
   */
  broken?: StoreError;
  /** Callers of committed() waiting for the open group's commit. */
  waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }>;
}

/** The transaction statements, prepared once per connection (not once per write). */
interface TransactionControl {
  begin: Database.Statement;
  commit: Database.Statement;
  rollback: Database.Statement;
  savepoint: Database.Statement;
  release: Database.Statement;
  rollbackTo: Database.Statement;
}

function prepareControl(db: Database.Database): TransactionControl {
  return {
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    savepoint: db.prepare('SAVEPOINT m3_write'),
    release: db.prepare('RELEASE m3_write'),
    rollbackTo: db.prepare('ROLLBACK TO m3_write'),
  };
}

const handles = new WeakMap<Store, Handle>();

const defaultBusyTimeoutMs = 5000;

/** Opens (and if needed creates and migrates) the SQLite run store at `file`. */
export function openStore(file: string, options: OpenStoreOptions = {}): Store {
  const readonly = options.readonly ?? false;
  const migrations = loadMigrations(options.migrationsDir ?? defaultMigrationsDir());
  const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? defaultBusyTimeoutMs));
  const db = connect(file, readonly);
  try {
    configure(db, readonly, busyTimeoutMs);
    const schemaVersion = readonly ? checkReadonlyVersion(db, file, migrations) : migrate(db, file, migrations);
    const store: Store = {
      file,
      readonly,
      schemaVersion,
      close: () => {
        const handle = handles.get(store);
        handles.delete(store);
        const reported = handle?.broken;
        try {
          if (handle) commitGroup(handle, store);
        } catch (error) {
          // A loss the run already reported is not thrown again over the report.
          if (error !== reported) throw error;
        } finally {
          if (db.open) db.close();
        }
      },
    };
    handles.set(store, {
      db,
      statements: new Map(),
      busyTimeoutMs,
      control: prepareControl(db),
      groupCommit: options.groupCommit === true && !readonly,
      waiters: [],
    });
    return store;
  } catch (error) {
    db.close();
    throw damagedStoreError(file, error) ?? error;
  }
}

/** SQLite's codes for a file that is not an intact database. */
function isDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/**
 * A damaged store file (torn by a crash or a full disk, truncated by a copy, not SQLite at all) as
 * a StoreError naming the file and the way out, or undefined for any other error. The run folders'
 * prediction files and manifests do not depend on the store.
 */
function damagedStoreError(file: string, error: unknown): StoreError | undefined {
  if (!isDamage(error)) return undefined;
  return new StoreError(
    `run store ${file} is damaged (SQLite: ${errorMessage(error)}). Move it aside (mv ${file} ${file}.damaged) and the next command starts a new, empty store ` +
      `(prediction files and manifests under results/ are separate files and stay as they are); \`sqlite3 ${file}.damaged .recover | sqlite3 ${file}\` may save the rows it still holds`,
    { cause: error },
  );
}

function connect(file: string, readonly: boolean): Database.Database {
  try {
    if (!readonly) mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    return new Database(file, { readonly, fileMustExist: readonly });
  } catch (error) {
    const hint = readonly ? 'check the path (a read-only open never creates the file)' : 'check that the folder is writable';
    throw new StoreError(`cannot open run store ${file}: ${errorMessage(error)}; ${hint}`, { cause: error });
  }
}

/** Page cache of a writing connection, in KiB (see configure). */
const WRITER_CACHE_KIB = 2048;

function configure(db: Database.Database, readonly: boolean, busyTimeoutMs: number): void {
  // busy_timeout first: switching to WAL needs a lock that another process may hold briefly.
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma('foreign_keys = ON');
  if (readonly) return;
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (String(mode).toLowerCase() !== 'wal') {
    throw new StoreError(`run store ${db.name}: could not switch to WAL journal mode (got "${String(mode)}"); is it on a network file system?`);
  }
  db.pragma('synchronous = NORMAL');
  // better-sqlite3 builds SQLite with a 16 MB page cache (SQLITE_DEFAULT_CACHE_SIZE=-16000 in its
  // deps/defines.gypi). A run's store is written, not read, so every page it writes stayed cached
  // until the cache held the whole file: host memory grew with each finished task (about 3 KB per
  // task in `npm run bench:memory`). Appends need only the B-tree's right edge and the index
  // pages; SQLite's own default of 2 MiB keeps them, and inserts measured no slower.
  db.pragma(`cache_size = -${WRITER_CACHE_KIB}`);
}

function checkReadonlyVersion(db: Database.Database, file: string, migrations: readonly Migration[]): number {
  const pending = pendingMigrations(db, file, migrations);
  if (pending.length > 0) {
    const names = pending.map((migration) => path.basename(migration.file)).join(', ');
    throw new StoreError(`run store ${file} lacks migration(s) ${names}; open it once for writing (any m3 run) to migrate it`);
  }
  return Number(db.pragma('user_version', { simple: true }));
}

function handleOf(store: Store): Handle {
  const handle = handles.get(store);
  if (!handle) throw new StoreError(`run store ${store.file} is closed; open it again with openStore()`);
  return handle;
}

/** A cached prepared statement (internal to src/store). */
export function statement(store: Store, sql: string): Database.Statement {
  const handle = handleOf(store);
  let prepared = handle.statements.get(sql);
  if (!prepared) {
    prepared = handle.db.prepare(sql);
    handle.statements.set(sql, prepared);
  }
  return prepared;
}

/**
 * Runs `work` in one write transaction: all of its rows land together or none do.
 * BEGIN IMMEDIATE takes the write lock up front, so a concurrent writer waits on busy_timeout
 * instead of failing mid-transaction with SQLITE_BUSY. A nested call (or any call while a
 * group commit is open) becomes a savepoint.
 */
export function inTransaction<T>(store: Store, work: () => T): T {
  const handle = handleOf(store);
  if (handle.groupCommit) openGroup(handle, store);
  const { db, control } = handle;
  const nested = db.inTransaction;
  (nested ? control.savepoint : control.begin).run();
  try {
    const result = work();
    (nested ? control.release : control.commit).run();
    return result;
  } catch (error) {
    try {
      if (db.inTransaction) {
        if (nested) {
          control.rollbackTo.run();
          control.release.run();
        } else control.rollback.run();
      }
    } catch {
      // SQLite already ended the transaction (it may on SQLITE_FULL or an I/O error): nothing to undo.
    }
    // The whole open group went with it: the writes of this turn that had returned are lost too.
    if (nested && handle.groupCommit && !db.inTransaction) handle.lostGroup ??= error;
    throw error;
  }
}

function openGroup(handle: Handle, store: Store): void {
  reportLostGroup(handle, store);
  if (handle.db.inTransaction) return;
  handle.control.begin.run();
  setImmediate(() => {
    try {
      commitOpenGroup(handle);
    } catch (error) {
      handle.lostGroup = error;
    }
    settleWaiters(handle, store);
  });
}

function commitOpenGroup({ db, control, groupCommit }: Handle): void {
  if (!groupCommit || !db.open || !db.inTransaction) return;
  try {
    control.commit.run();
  } catch (error) {
    if (db.inTransaction) control.rollback.run();
    throw error;
  }
}

/** Commits an open group now (before close or a PRAGMA) and reports a group that was lost. */
function commitGroup(handle: Handle, store: Store): void {
  try {
    commitOpenGroup(handle);
  } catch (error) {
    handle.lostGroup = error;
  }
  settleWaiters(handle, store);
  reportLostGroup(handle, store);
}

function settleWaiters(handle: Handle, store: Store): void {
  const waiters = handle.waiters.splice(0);
  if (waiters.length === 0) return;
  const failure = lostGroupError(handle, store);
  for (const waiter of waiters) {
    if (failure) waiter.reject(failure);
    else waiter.resolve();
  }
}

/** The error of a lost group, made once and kept: the store accepts no write after it. */
function lostGroupError(handle: Handle, store: Store): StoreError | undefined {
  if (handle.lostGroup !== undefined) {
    const lost = handle.lostGroup;
    handle.lostGroup = undefined;
    const what = `a group of writes could not be committed (${errorMessage(lost)}); the rows written in that turn are not in the file`;
    handle.broken ??= new StoreError(
      isDiskFull(lost)
        ? `run store ${store.file}: disk full: ${what}; free space on the disk holding it and resume the run`
        : `run store ${store.file}: ${what}`,
      { cause: lost },
    );
  }
  return handle.broken;
}

function reportLostGroup(handle: Handle, store: Store): void {
  const broken = lostGroupError(handle, store);
  if (broken) throw broken;
}

/**
 * Resolves once every write made so far is in the file: at once without group commit, else after
 * the open group's commit. Rejects with the store's error when that (or an earlier) group was lost,
 * so a caller reports a task as done only when its rows are committed.
 */
export function committed(store: Store): Promise<void> {
  const handle = handleOf(store);
  const broken = lostGroupError(handle, store);
  if (broken) return Promise.reject(broken);
  if (!handle.groupCommit || !handle.db.inTransaction) return Promise.resolve();
  return new Promise((resolve, reject) => handle.waiters.push({ resolve, reject }));
}

/** SQLite's "database or disk is full" or the OS's "no space left on device", anywhere in the cause chain. */
export function isDiskFull(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 10; current = current.cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (code === 'SQLITE_FULL' || code === 'ENOSPC' || /\bSQLITE_FULL\b|database or disk is full|no space left on device/i.test(current.message)) return true;
  }
  return false;
}

/**
 * A write with a readable failure: `where` names the store function, and `explain` turns a
 * SQLite error code (e.g. SQLITE_CONSTRAINT_UNIQUE) into a sentence that says how to fix it.
 */
export function writeTransaction<T>(store: Store, where: string, work: () => T, explain?: (code: string) => string | undefined): T {
  const { busyTimeoutMs } = handleOf(store);
  if (store.readonly) throw new StoreError(`${where}: run store ${store.file} was opened read-only; open it without { readonly: true } to write`);
  try {
    return inTransaction(store, work);
  } catch (error) {
    if (error instanceof StoreError) throw error;
    const damaged = damagedStoreError(store.file, error);
    if (damaged) throw damaged;
    const code = (error as { code?: unknown }).code;
    const reason = (typeof code === 'string' ? (explain?.(code) ?? explainCommon(code, busyTimeoutMs)) : undefined) ?? errorMessage(error);
    throw new StoreError(`${where} failed on run store ${store.file}: ${reason}`, { cause: error });
  }
}

function explainCommon(code: string, busyTimeoutMs: number): string | undefined {
  if (code.startsWith('SQLITE_BUSY')) {
    return `another process held the write lock for more than ${busyTimeoutMs} ms; retry, or open the store with a larger busyTimeoutMs`;
  }
  if (code === 'SQLITE_FULL') return 'disk full; free space and resume the run with --resume';
  if (code.startsWith('SQLITE_READONLY')) return 'the file or its folder is not writable by this process';
  return undefined;
}

/** Reads rows with a cached statement (internal to src/store). */
export function selectAll(store: Store, sql: string, ...params: unknown[]): unknown[] {
  try {
    return statement(store, sql).all(...params);
  } catch (error) {
    throw damagedStoreError(store.file, error) ?? error;
  }
}

/** Runs a PRAGMA and returns its rows (internal to src/store; used by checks and tests). */
export function pragma(store: Store, source: string): unknown {
  const handle = handleOf(store);
  commitGroup(handle, store);
  return handle.db.pragma(source);
}

/**
 * `PRAGMA integrity_check`: "ok", or the problems SQLite found.
 * @internal Exported for its tests.
 */
export function checkIntegrity(store: Store): string[] {
  const handle = handleOf(store);
  commitGroup(handle, store);
  const rows = handle.db.pragma('integrity_check') as Array<{ integrity_check: string }>;
  return rows.map((row) => row.integrity_check);
}
