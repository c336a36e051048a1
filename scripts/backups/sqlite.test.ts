import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, expect, it } from "vitest";
import { sqliteInUse } from "./sqlite.ts";

const dir = mkdtempSync(join(tmpdir(), "vics-sqlite-in-use-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("is true while a connection has the WAL file open, idle, and false once it is closed", () => {
  const path = join(dir, "store.sqlite");
  const server = new DatabaseSync(path);
  server.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x)");
  expect(sqliteInUse(path)).toBe(true);
  server.close();
  expect(sqliteInUse(path)).toBe(false);
  // The probe left it as it was: in WAL mode, its table there.
  const reader = new DatabaseSync(path, { readOnly: true });
  expect(reader.prepare("PRAGMA journal_mode").get()).toEqual({
    journal_mode: "wal",
  });
  expect(reader.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 0 });
  reader.close();
});

it("is false for no file, and for a file that is not SQLite's", () => {
  expect(sqliteInUse(join(dir, "missing.sqlite"))).toBe(false);
  const text = join(dir, "notes.sqlite");
  writeFileSync(text, "x".repeat(4096));
  expect(sqliteInUse(text)).toBe(false);
});

it("says it cannot tell when it cannot open the path at all", () => {
  const folder = join(dir, "a-folder.sqlite");
  mkdirSync(folder);
  expect(() => sqliteInUse(folder)).toThrow(
    `Cannot tell whether ${folder} is open in a running server (`,
  );
});
