import {
  chmodSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { inTransaction, openSqlite } from "./sqlite.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0))
    rmSync(folder, { recursive: true, force: true });
});
function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "vics-sqlite-"));
  folders.push(folder);
  return folder;
}

const modeOf = (path: string) => statSync(path).mode & 0o777;

const OPTIONS = { busyTimeoutMs: 1_000, pragmas: ["journal_mode = WAL"] };

describe("openSqlite", () => {
  it("creates the file's folder, applies the pragmas and enforces foreign keys", () => {
    const path = join(tempFolder(), "new", "folder", "app.db");
    const db = openSqlite(path, {
      busyTimeoutMs: 1_000,
      pragmas: ["journal_mode = WAL", "synchronous = FULL"],
    });
    expect(db.prepare("PRAGMA journal_mode").get()).toEqual({
      journal_mode: "wal",
    });
    expect(db.prepare("PRAGMA synchronous").get()).toEqual({ synchronous: 2 });
    expect(db.prepare("PRAGMA foreign_keys").get()).toEqual({
      foreign_keys: 1,
    });
    db.close();
  });

  it("creates the database, its -wal and -shm and its new folder for the owner alone", () => {
    const folder = join(tempFolder(), "data");
    const path = join(folder, "app.db");
    const db = openSqlite(path, OPTIONS);
    db.exec("CREATE TABLE t (x); INSERT INTO t VALUES (1)");
    expect(modeOf(folder)).toBe(0o700);
    for (const file of [path, `${path}-wal`, `${path}-shm`])
      expect([file, modeOf(file)]).toEqual([file, 0o600]);
    db.close();
  });

  it("takes group and other access off an existing database and its -wal, and says so", () => {
    const path = join(tempFolder(), "old.db");
    openSqlite(path, OPTIONS).close();
    for (const file of [path, `${path}-wal`, `${path}-shm`])
      writeFileSync(file, "", { flag: "a" });
    for (const file of [path, `${path}-wal`, `${path}-shm`])
      chmodSync(file, 0o644);
    const fixed: string[] = [];
    const db = openSqlite(path, {
      ...OPTIONS,
      onOwnerOnly: (paths) => fixed.push(...paths.map((each) => each.path)),
    });
    expect(fixed).toEqual([path, `${path}-wal`, `${path}-shm`]);
    for (const file of [path, `${path}-wal`, `${path}-shm`])
      expect([file, modeOf(file)]).toEqual([file, 0o600]);
    db.close();
  });

  it("refuses a file that is not a database, at once", () => {
    const path = join(tempFolder(), "not-a.db");
    writeFileSync(path, "x".repeat(4096));
    expect(() => openSqlite(path, OPTIONS)).toThrow(/not a database/);
  });
});

describe("inTransaction", () => {
  it("commits what the work wrote and returns its result", () => {
    const db = openSqlite(":memory:", OPTIONS);
    db.exec("CREATE TABLE t (n INTEGER)");
    const result = inTransaction(db, () => {
      db.exec("INSERT INTO t VALUES (1)");
      return "done";
    });
    expect(result).toBe("done");
    expect(db.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 1 });
    db.close();
  });

  it("rolls everything back when the work throws, and throws on", () => {
    const db = openSqlite(":memory:", OPTIONS);
    db.exec("CREATE TABLE t (n INTEGER)");
    expect(() =>
      inTransaction(db, () => {
        db.exec("INSERT INTO t VALUES (1)");
        throw new Error("halfway");
      }),
    ).toThrow("halfway");
    expect(db.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 0 });
    db.close();
  });
});
