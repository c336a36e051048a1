/**
 * `@vics/server-kit/sqlite`: how the service and the proxy open their own SQLite files and
 * write to them. What differs between the two (how long a writer waits, which pragmas) is the
 * caller's; the rest is this one job.
 */
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { keepOwnerOnly, sqliteFiles, type OwnerOnlyFix } from "./owner-only.ts";

export interface SqliteOptions {
  /** How long a writer waits for another process's write lock before it fails. */
  busyTimeoutMs: number;
  /**
   * The PRAGMA settings, e.g. "journal_mode = WAL". They are the first statements that read
   * the file, so a damaged or foreign file fails here, and the connection is closed.
   */
  pragmas: readonly string[];
  /** Told of an existing file or folder that others could read, now owner-only (for a warn). */
  onOwnerOnly?: (fixed: OwnerOnlyFix[]) => void;
}

/**
 * Opens (and creates, with its folder) the database at `path`, or ":memory:". The file and its
 * -wal and -shm are the owner's alone (owner-only.ts): the file is made 0600 before SQLite
 * opens it, so the -wal and -shm it makes copy that mode.
 */
export function openSqlite(
  path: string,
  { busyTimeoutMs, pragmas, onOwnerOnly }: SqliteOptions,
): DatabaseSync {
  if (path !== ":memory:") {
    // A folder made here is 0700; one that exists is left as it is (it may be shared, /tmp).
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const fixed = keepOwnerOnly(sqliteFiles(path));
    createOwnerOnly(path);
    if (fixed.length > 0) onOwnerOnly?.(fixed);
  }
  const db = new DatabaseSync(path, {
    timeout: busyTimeoutMs,
    enableForeignKeyConstraints: true,
  });
  try {
    db.exec(pragmas.map((pragma) => `PRAGMA ${pragma};`).join(" "));
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * Creates `path` empty and 0600 when it is missing, for SQLite to open. An existing file is
 * left alone (it may be read-only); when it cannot be made, SQLite's own open says why.
 */
function createOwnerOnly(path: string): void {
  try {
    closeSync(openSync(path, "wx", 0o600));
  } catch {
    // EEXIST, or a folder SQLite cannot write either.
  }
}

/** Runs `work` in one write transaction; a throw rolls everything back. */
export function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = work();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}
