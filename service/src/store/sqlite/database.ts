import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";

/**
 * How long a writer waits for another process's lock (the keys CLI beside the service).
 * Longer than a first-start seeding on a busy machine, which holds the lock for seconds.
 */
const BUSY_TIMEOUT_MS = 60_000;

export function openDatabase(path: string): DatabaseSync {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, {
    timeout: BUSY_TIMEOUT_MS,
    enableForeignKeyConstraints: true,
  });
  try {
    // The first statement that reads the file: a damaged or foreign file fails here.
    // Reads through a memory map of up to 1 GiB and a 64 MiB page cache: a 1,000-item bulk
    // lookup on a 1,000,000-vehicle database takes half the time (docs/performance.md).
    db.exec(
      "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA mmap_size = 1073741824; PRAGMA cache_size = -65536;",
    );
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
