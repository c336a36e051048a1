/**
 * `@vics/shared/server/sqlite`: how the service and the proxy open their own SQLite files and
 * write to them. What differs between the two (how long a writer waits, which pragmas) is the
 * caller's; the rest is this one job.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";

export interface SqliteOptions {
  /** How long a writer waits for another process's write lock before it fails. */
  busyTimeoutMs: number;
  /**
   * The PRAGMA settings, e.g. "journal_mode = WAL". They are the first statements that read
   * the file, so a damaged or foreign file fails here, and the connection is closed.
   */
  pragmas: readonly string[];
}

/** Opens (and creates, with its folder) the database at `path`, or ":memory:". */
export function openSqlite(
  path: string,
  { busyTimeoutMs, pragmas }: SqliteOptions,
): DatabaseSync {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
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
