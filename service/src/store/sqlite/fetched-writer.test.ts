// A fetch's write while another process (scripts/import) holds the file's write lock: it must
// give up at once with StoreBusyError, not wait out the connection's long busy timeout, which
// node:sqlite spends blocking the whole service.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { fetched } from "../../testing/fetched.ts";
import { StoreBusyError } from "../fetched-facts.ts";
import { openDatabase } from "./database.ts";
import { sqliteFetchedStore } from "./fetched-writer.ts";
import { migrateSqlite } from "./schema.ts";

/** Another process that takes the write lock, says "locked", and lets go on a line of input. */
const HOLD_LOCK = `
const { DatabaseSync } = require("node:sqlite");
const db = new DatabaseSync(process.argv[1]);
db.exec("BEGIN IMMEDIATE");
process.stdout.write("locked\\n");
process.stdin.once("data", () => { db.exec("ROLLBACK"); db.close(); process.exit(0); });
`;

async function holdLock(path: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["-e", HOLD_LOCK, path], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const [said] = (await once(child.stdout!, "data")) as [Buffer];
  expect(said.toString()).toBe("locked\n");
  return child;
}

async function release(child: ChildProcess): Promise<void> {
  const exited = once(child, "exit");
  child.stdin!.write("\n");
  expect(await exited).toEqual([0, null]);
}

const AT = "2026-03-11T08:00:00.000Z";
const added = fetched(
  {
    registration: "AB12CDE",
    vehicle: { make: "Ford", year: 2019, firstRegistered: "2019-03-01" },
    tax: { sorn: false, dueDate: "2027-01-31" },
  },
  AT,
);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function openFile(): { path: string; db: DatabaseSync } {
  const dir = mkdtempSync(join(tmpdir(), "vics-fetched-busy-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, "vics.sqlite");
  const db = openDatabase(path);
  cleanups.push(() => db.close());
  migrateSqlite(db);
  return { path, db };
}

const busyTimeout = (db: DatabaseSync) =>
  db.prepare("PRAGMA busy_timeout").get()?.timeout;

describe("facts fetched into SQLite while another process holds the write lock", () => {
  it("are refused with StoreBusyError, nothing written, the connection's wait kept; stored once the lock is let go", async () => {
    const { path, db } = openFile();
    const store = sqliteFetchedStore(db);
    const before = busyTimeout(db);
    const child = await holdLock(path);
    cleanups.push(() => {
      if (child.exitCode === null) child.kill();
    });

    await expect(store.recordFetched([added])).rejects.toBeInstanceOf(
      StoreBusyError,
    );
    await expect(
      store.recordSourceOutcome({ source: "dvla-ves", at: AT, ok: true }),
    ).rejects.toBeInstanceOf(StoreBusyError);
    expect(busyTimeout(db)).toBe(before);
    expect(before).toBe(60_000);
    await release(child);

    const count = (table: string) =>
      db.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n;
    expect(count("vehicles")).toBe(0);
    expect(count("fetched_facts")).toBe(0);
    expect(await store.sourceStates()).toEqual([]);

    expect(await store.recordFetched([added])).toEqual({
      added: 1,
      changed: 0,
      unchanged: 0,
      skipped: 0,
    });
    await store.recordSourceOutcome({ source: "dvla-ves", at: AT, ok: true });
    expect(count("vehicles")).toBe(1);
    expect((await store.freshness(["AB12CDE"])).get("AB12CDE")).toEqual({
      tax: { source: "dvla-ves", fetchedAt: AT },
      vehicle: { source: "dvla-ves", fetchedAt: AT },
    });
    expect((await store.sourceStates())[0]?.lastSuccessAt).toBe(AT);
    expect(busyTimeout(db)).toBe(60_000);
  });
});
