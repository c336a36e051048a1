/**
 * `@vics/server-kit/sqlite-migrations`: the one SQLite migration runner, beside
 * `migratePg` (postgres.ts), for the service's file and the proxy's.
 *
 * The record of what a file has run is `PRAGMA user_version`, the count of steps done: both
 * servers' files have always counted so, so a file made by any earlier release is read as it
 * is and never runs a step twice. It lives in the file's header page, so setting it inside a
 * step's transaction commits or rolls back with the step.
 */
import { existsSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { inTransaction } from "./sqlite.ts";

/** One schema step: SQL, run whole in the step's transaction. */
export type SqliteStep = string;

/** How many steps the open file has run. */
export function sqliteStepsRun(db: DatabaseSync): number {
  return Number(db.prepare("PRAGMA user_version").get()?.user_version ?? 0);
}

/**
 * Brings the file up to date, each step in its own write transaction that also records it:
 * a step that fails is rolled back and not counted, and the steps before it stay. The count
 * is read again under the write lock (BEGIN IMMEDIATE), so processes that open the file
 * together run each step once. A file that has run more steps than `steps` holds (a newer
 * release's) is left as it is. Returns how many steps this call ran.
 */
export function migrateSqliteSteps(
  db: DatabaseSync,
  steps: readonly SqliteStep[],
): number {
  let ran = 0;
  // Read outside a transaction first: an up-to-date file (every open) takes no write lock.
  while (sqliteStepsRun(db) < steps.length) {
    const ranOne = inTransaction(db, () => {
      const done = sqliteStepsRun(db);
      const step = steps[done];
      // Another process ran the rest while this one waited for the lock.
      if (step === undefined) return false;
      db.exec(step);
      db.exec(`PRAGMA user_version = ${done + 1}`);
      return true;
    });
    if (!ranOne) break;
    ran += 1;
  }
  return ran;
}

/**
 * How many steps the file at `path` has run, read without changing it; undefined when there
 * is no file there (nothing has opened it yet).
 */
export function sqliteStepsRunAt(path: string): number | undefined {
  if (!existsSync(path)) return undefined;
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return sqliteStepsRun(db);
  } finally {
    db.close();
  }
}
