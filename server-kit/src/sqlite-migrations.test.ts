import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import {
  migrateSqliteSteps,
  sqliteStepsRun,
  sqliteStepsRunAt,
  type SqliteStep,
} from "./sqlite-migrations.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0))
    rmSync(folder, { recursive: true, force: true });
});
function tempFile(): string {
  const folder = mkdtempSync(join(tmpdir(), "vics-sqlite-migrations-"));
  folders.push(folder);
  return join(folder, "app.db");
}

// CREATE TABLE without IF NOT EXISTS: a step that ran twice would throw.
const STEPS = [1, 2, 3].map(
  (n) => `CREATE TABLE t${n} (x); INSERT INTO log (step) VALUES (${n});`,
);
function withLog(path: string): DatabaseSync {
  const db = new DatabaseSync(path, { timeout: 10_000 });
  db.exec("PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS log (step)");
  return db;
}
const logged = (db: DatabaseSync) =>
  db
    .prepare("SELECT step FROM log ORDER BY rowid")
    .all()
    .map((row) => row.step);
const tables = (db: DatabaseSync) =>
  db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 't%' ORDER BY name",
    )
    .all()
    .map((row) => row.name);

describe("migrateSqliteSteps", () => {
  it("runs every step once, in order, and nothing on the next open", () => {
    const db = withLog(":memory:");
    expect(migrateSqliteSteps(db, STEPS)).toBe(3);
    expect(sqliteStepsRun(db)).toBe(3);
    expect(logged(db)).toEqual([1, 2, 3]);
    expect(migrateSqliteSteps(db, STEPS)).toBe(0);
    expect(logged(db)).toEqual([1, 2, 3]);
    db.close();
  });

  it("keeps the steps before a failing one, leaves that one unrecorded, and runs only the rest again", () => {
    const db = withLog(":memory:");
    const failing: SqliteStep[] = [
      STEPS[0]!,
      // Fails on its third statement, after two have run: SQLite names the missing table.
      `CREATE TABLE t2 (x); INSERT INTO log (step) VALUES (2);
       INSERT INTO "step 2 failed half way" VALUES (1);`,
      STEPS[2]!,
    ];
    expect(() => migrateSqliteSteps(db, failing)).toThrow(
      "step 2 failed half way",
    );
    expect(sqliteStepsRun(db)).toBe(1);
    expect(tables(db)).toEqual(["t1"]);
    expect(logged(db)).toEqual([1]);
    // The release that fixes step 2 runs steps 2 and 3 only.
    expect(migrateSqliteSteps(db, STEPS)).toBe(2);
    expect(logged(db)).toEqual([1, 2, 3]);
    db.close();
  });

  it("reads a file an earlier release migrated by its user_version, and runs only the steps after", () => {
    const db = withLog(":memory:");
    // As a release that knew two steps left the file.
    db.exec(`${STEPS[0]} ${STEPS[1]} PRAGMA user_version = 2;`);
    expect(migrateSqliteSteps(db, STEPS)).toBe(1);
    // Each step logs its number once it runs: only step 3 ran now.
    expect(logged(db)).toEqual([1, 2, 3]);
    expect(sqliteStepsRun(db)).toBe(3);
    db.close();
  });

  it("leaves a file a newer release migrated as it is", () => {
    const db = withLog(":memory:");
    db.exec("PRAGMA user_version = 7");
    expect(migrateSqliteSteps(db, STEPS)).toBe(0);
    expect(sqliteStepsRun(db)).toBe(7);
    expect(tables(db)).toEqual([]);
    db.close();
  });

  it("runs each step once when two processes migrate one file together", async () => {
    const path = tempFile();
    // This connection holds the write lock while both workers find the file behind and
    // queue for the lock; the outcome, not the timing, is what the test checks.
    const holder = withLog(path);
    holder.exec("BEGIN IMMEDIATE");
    const workers = [1, 2].map(() => migrateInWorker(path, STEPS));
    await Promise.all(workers.map(({ ready }) => ready));
    await new Promise((resolve) => setTimeout(resolve, 200));
    holder.exec("COMMIT");
    const ran = await Promise.all(workers.map(({ done }) => done));
    expect(ran.reduce((sum, n) => sum + n, 0)).toBe(3);
    expect(logged(holder)).toEqual([1, 2, 3]);
    expect(sqliteStepsRun(holder)).toBe(3);
    holder.close();
  });
});

describe("sqliteStepsRunAt", () => {
  it("reads a file's count without creating one where there is none", () => {
    const path = tempFile();
    expect(sqliteStepsRunAt(path)).toBeUndefined();
    const db = withLog(path);
    migrateSqliteSteps(db, STEPS.slice(0, 2));
    db.close();
    expect(sqliteStepsRunAt(path)).toBe(2);
    expect(sqliteStepsRunAt(`${path}-missing`)).toBeUndefined();
  });
});

/** A second process's migration, as a worker thread with its own connection. */
function migrateInWorker(path: string, steps: readonly string[]) {
  const worker = new Worker(
    `
    const { workerData, parentPort } = require("node:worker_threads");
    const { DatabaseSync } = require("node:sqlite");
    import(workerData.runner).then(({ migrateSqliteSteps }) => {
      const db = new DatabaseSync(workerData.path, { timeout: 10000 });
      parentPort.postMessage("ready");
      const ran = migrateSqliteSteps(db, workerData.steps);
      db.close();
      parentPort.postMessage(ran);
    });`,
    {
      eval: true,
      workerData: {
        path,
        steps,
        runner: pathToFileURL(join(import.meta.dirname, "sqlite-migrations.ts"))
          .href,
      },
    },
  );
  // Its two messages, in order: about to migrate, then how many steps it ran. The second
  // listener is added in a microtask after the first message, before the next can arrive.
  const ready = once(worker, "message");
  const done = ready.then(async () => (await once(worker, "message"))[0]);
  return { ready, done: done as Promise<number> };
}
