import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";

/** Another process (`scripts/users` beside the proxy) may hold the write lock for a moment. */
const BUSY_TIMEOUT_MS = 10_000;

export function openDatabase(path: string): DatabaseSync {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, {
    timeout: BUSY_TIMEOUT_MS,
    enableForeignKeyConstraints: true,
  });
  try {
    // WAL: readers never wait for the audit writes. FULL: a committed audit event survives a
    // power cut, since a check is answered only once its event is committed.
    db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;");
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
