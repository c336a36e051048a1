import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ImportKind } from "@vics/shared/import/rows";
import { openDatabase } from "../store/sqlite/database.ts";
import { sqliteImportStore } from "../store/sqlite/import-writer.ts";
import { migrateSqlite, readMeta } from "../store/sqlite/schema.ts";
import { createVehicleQueries } from "../store/sqlite/vehicle-queries.ts";
import { type ImportOptions, runImport } from "./run-import.ts";

const VEHICLES = "registration,make,model,year,colour,first_registered";
const POLICIES =
  "registration,policy_number,insurer,cover_type,valid_from,valid_to";

let dir: string;
let db: DatabaseSync;
let clock: number;
const now = () => new Date((clock += 1000));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "vics-import-"));
  db = openDatabase(join(dir, "vics.sqlite"));
  migrateSqlite(db);
  clock = Date.parse("2026-11-24T06:00:00Z");
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
async function importText<K extends ImportKind>(
  kind: K,
  lines: string[],
  options: Partial<ImportOptions<K>> = {},
) {
  const path = join(dir, `${kind}-${++files}.csv`);
  writeFileSync(path, lines.join("\n") + "\n");
  return runImport(
    sqliteImportStore(db),
    {
      kind,
      path,
      mode: "upsert",
      maxDeletePct: 10,
      force: false,
      dryRun: false,
      rejectsPath: `${path}.rejects.csv`,
      runBy: "ops",
      ...options,
    },
    now,
  );
}

const vehicle = (registration: string, colour = "Blue") =>
  `${registration},Ford,Focus,2019,${colour},2019-03-01`;
const policy = (registration: string, number: string, validTo = "2027-01-31") =>
  `${registration},${number},Northwind,Comprehensive,2026-02-01,${validTo}`;

const facts = (registration: string) =>
  createVehicleQueries(db).findVehicle(registration);
const historyOf = (registration: string) =>
  db
    .prepare(
      "SELECT color, policies, superseded_at FROM vehicle_history WHERE registration = ? ORDER BY id",
    )
    .all(registration);
const rowCount = (table: string) =>
  Number(db.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n);

describe("importing into SQLite", () => {
  it("adds, then changes with the old facts kept, and counts what it did", async () => {
    const first = await importText("vehicles", [
      VEHICLES,
      vehicle("AB12CDE"),
      vehicle("CD34EFG"),
    ]);
    expect(first).toMatchObject({
      outcome: "applied",
      counts: { rows: 2, added: 2, changed: 0, unchanged: 0, rejected: 0 },
      examples: { added: ["AB12CDE", "CD34EFG"] },
    });
    expect(readMeta(db, "fleet")).toBe("imported");

    const second = await importText("vehicles", [
      VEHICLES,
      vehicle("AB12CDE", "Red"),
      vehicle("CD34EFG"),
      vehicle("EF56GHI"),
    ]);
    expect(second).toMatchObject({
      outcome: "applied",
      counts: { rows: 3, added: 1, changed: 1, unchanged: 1, removed: 0 },
      examples: { changed: ["AB12CDE"], added: ["EF56GHI"] },
    });
    expect(facts("AB12CDE")?.vehicle.color).toBe("Red");
    expect(historyOf("AB12CDE")).toEqual([
      { color: "Blue", policies: "[]", superseded_at: expect.any(String) },
    ]);
    expect(historyOf("CD34EFG")).toEqual([]);
  });

  it("keeps each policy version: a cancellation is a change, the old period in history", async () => {
    await importText("vehicles", [VEHICLES, vehicle("AB12CDE")]);
    await importText("policies", [POLICIES, policy("AB12CDE", "POL-1")]);
    const cancelled = await importText("policies", [
      POLICIES,
      policy("AB12CDE", "POL-1", "2026-06-30"),
    ]);
    expect(cancelled).toMatchObject({ counts: { changed: 1 } });
    expect(facts("AB12CDE")?.policies).toMatchObject([
      { number: "POL-1", validTo: "2026-06-30" },
    ]);
    const history = historyOf("AB12CDE");
    expect(history).toHaveLength(2);
    expect(String(history[1]?.policies)).toContain("2027-01-31");
  });

  it("refuses a policy for a vehicle not on record, and every line of a key that repeats", async () => {
    await importText("vehicles", [VEHICLES, vehicle("AB12CDE")]);
    const report = await importText("policies", [
      POLICIES,
      policy("AB12CDE", "POL-1"),
      policy("ZZ99ZZZ", "POL-2"),
      policy("AB12CDE", "POL-3"),
      policy("AB12CDE", "POL-3", "2026-12-31"),
    ]);
    expect(report).toMatchObject({
      outcome: "applied",
      counts: { rows: 4, added: 1, rejected: 3 },
    });
    const rejects = readFileSync(
      "rejectsPath" in report ? (report.rejectsPath ?? "") : "",
      "utf8",
    );
    expect(rejects.split("\r\n")).toEqual([
      "\uFEFFline,column,value,reason",
      "3,registration,ZZ99ZZZ,No vehicle ZZ99ZZZ is on record: import it in a vehicles file first.",
      '4,policy_number,AB12CDE POL-3,"The policy AB12CDE POL-3 is on lines 4, 5: a file may hold each policy once. None of those lines was imported."',
      '5,policy_number,AB12CDE POL-3,"The policy AB12CDE POL-3 is on lines 4, 5: a file may hold each policy once. None of those lines was imported."',
      "",
    ]);
  });

  it("changes nothing the second time it is given the same file", async () => {
    const lines = [VEHICLES, vehicle("AB12CDE")];
    const first = await importText("vehicles", lines);
    const again = await importText("vehicles", lines);
    expect(again).toMatchObject({
      outcome: "already-imported",
      earlier: { id: first.importId },
    });
    expect(historyOf("AB12CDE")).toEqual([]);
    const listed = await sqliteImportStore(db).listImports(10);
    expect(listed.map((row) => row.outcome)).toEqual([
      "already-imported",
      "applied",
    ]);
  });

  it("refuses a snapshot that would remove 90%, changing nothing, then applies it with --force", async () => {
    const fleet = Array.from(
      { length: 10 },
      (_, index) => `AB${String(10 + index)}CDE`,
    );
    await importText("vehicles", [
      VEHICLES,
      ...fleet.map((reg) => vehicle(reg)),
    ]);
    const snapshot = [VEHICLES, vehicle("AB10CDE")];
    const refused = await importText("vehicles", snapshot, {
      mode: "snapshot",
    });
    expect(refused).toMatchObject({
      outcome: "refused",
      counts: { removed: 9, unchanged: 1 },
      reason: expect.stringContaining(
        "would remove 9 of 10 vehicle records (90.0%)",
      ),
      examples: { removed: fleet.slice(1, 6) },
    });
    expect(rowCount("vehicles")).toBe(10);
    expect(rowCount("vehicle_history")).toBe(0);

    const forced = await importText("vehicles", snapshot, {
      mode: "snapshot",
      force: true,
    });
    expect(forced).toMatchObject({
      outcome: "applied",
      counts: { removed: 9 },
    });
    expect(rowCount("vehicles")).toBe(1);
    expect(rowCount("vehicle_history")).toBe(9);
    const outcomes = (await sqliteImportStore(db).listImports(10)).map(
      (row) => row.outcome,
    );
    expect(outcomes).toEqual(["applied", "refused", "applied"]);
  });

  it("does all the work on a dry run, says what would change, and keeps nothing", async () => {
    await importText("vehicles", [VEHICLES, vehicle("AB12CDE")]);
    const dry = await importText(
      "vehicles",
      [VEHICLES, vehicle("AB12CDE", "Red"), vehicle("CD34EFG"), "XX,,,,,"],
      { dryRun: true },
    );
    expect(dry).toMatchObject({
      outcome: "dry-run",
      counts: { added: 1, changed: 1, rejected: 1 },
      examples: { added: ["CD34EFG"], changed: ["AB12CDE"] },
    });
    expect(dry.importId).toBeUndefined();
    expect(facts("AB12CDE")?.vehicle.color).toBe("Blue");
    expect(facts("CD34EFG")).toBeUndefined();
    expect(rowCount("vehicle_history")).toBe(0);
    expect(rowCount("imports")).toBe(1);
  });

  it("refuses a file with an unclosed quote whole, with its line in the reject file", async () => {
    const report = await importText("vehicles", [
      VEHICLES,
      vehicle("AB12CDE"),
      'CD34EFG,"Ford,Focus,2019,Blue,2019-03-01',
      vehicle("EF56GHI"),
    ]);
    expect(report).toMatchObject({ outcome: "refused" });
    expect(rowCount("vehicles")).toBe(0);
    const rejects = readFileSync(
      "rejectsPath" in report ? (report.rejectsPath ?? "") : "",
      "utf8",
    );
    expect(rejects).toContain(
      `3,,,"A quote mark ("") opens a value on this line`,
    );
    expect(rejects).toContain("nothing was imported");
  });

  it("writes a value a spreadsheet would run as a formula as text", async () => {
    const report = await importText("vehicles", [
      VEHICLES,
      '=HYPERLINK("http://x"),Ford,Focus,2019,Blue,2019-03-01',
    ]);
    const rejects = readFileSync(
      "rejectsPath" in report ? (report.rejectsPath ?? "") : "",
      "utf8",
    );
    expect(rejects).toContain(`2,registration,"'=HYPERLINK(""http://x"")"`);
  });
});

describe("importing MOT tests, road tax and fines into SQLite", () => {
  const MOT = "registration,test_date,expiry_date";
  const TAX = "registration,status,due_date";
  const FINES = "registration,reference,issued_on,amount,paid";

  beforeEach(async () => {
    await importText("vehicles", [
      VEHICLES,
      vehicle("AB12CDE"),
      vehicle("CD34EFG"),
    ]);
  });

  it("MOT: adds tests, changes an expiry with the old one kept, refuses an unknown vehicle", async () => {
    const first = await importText("mot", [
      MOT,
      "AB12CDE,2025-02-20,2026-02-28",
      "AB12CDE,2026-02-20,2027-02-28",
      "ZZ99ZZZ,2026-02-20,2027-02-28",
    ]);
    expect(first).toMatchObject({
      outcome: "applied",
      counts: { rows: 3, added: 2, rejected: 1 },
    });
    expect(facts("AB12CDE")?.motTests).toEqual([
      { testedOn: "2025-02-20", expiresOn: "2026-02-28" },
      { testedOn: "2026-02-20", expiresOn: "2027-02-28" },
    ]);
    const corrected = await importText("mot", [
      MOT,
      "AB12CDE,2026-02-20,2027-02-19",
    ]);
    expect(corrected).toMatchObject({ counts: { changed: 1 } });
    expect(facts("AB12CDE")?.motTests.map((test) => test.expiresOn)).toEqual([
      "2026-02-28",
      "2027-02-19",
    ]);
    expect(historyOf("AB12CDE").at(-1)?.policies).toBe("[]");
    expect(
      String(
        db
          .prepare(
            "SELECT mots FROM vehicle_history WHERE registration = 'AB12CDE' ORDER BY id DESC",
          )
          .get()?.mots,
      ),
    ).toContain("2027-02-28");
  });

  it("road tax: a state per vehicle, added, changed to SORN, and removed by a snapshot", async () => {
    const first = await importText("tax", [
      TAX,
      "AB12CDE,taxed,2027-03-31",
      "CD34EFG,taxed,2027-01-31",
    ]);
    expect(first).toMatchObject({ counts: { added: 2 } });
    expect(facts("AB12CDE")?.tax).toEqual({
      sorn: false,
      dueDate: "2027-03-31",
    });
    const snapshot = await importText(
      "tax",
      [TAX, "AB12CDE,SORN,", "CD34EFG,taxed,2027-01-31"],
      { mode: "snapshot" },
    );
    expect(snapshot).toMatchObject({
      counts: { changed: 1, unchanged: 1, removed: 0 },
    });
    expect(facts("AB12CDE")?.tax).toEqual({ sorn: true, dueDate: null });
    const removed = await importText("tax", [TAX, "AB12CDE,SORN,"], {
      mode: "snapshot",
      force: true,
    });
    expect(removed).toMatchObject({
      counts: { unchanged: 1, removed: 1 },
      examples: { removed: ["CD34EFG"] },
    });
    expect(facts("CD34EFG")?.tax).toEqual({ sorn: false, dueDate: null });
  });

  it("fines: matched by reference, a payment is a change, a repeated reference refused", async () => {
    const first = await importText("fines", [
      FINES,
      "AB12CDE,PCN-1,2026-10-02,65.00,no",
      'AB12CDE,PCN-2,2026-10-05,"£1,200.50",no',
      "CD34EFG,PCN-3,2026-06-18,130,yes",
      "CD34EFG,PCN-3,2026-06-18,130,no",
    ]);
    expect(first).toMatchObject({
      counts: { added: 2, rejected: 2 },
    });
    expect(facts("AB12CDE")?.fines).toEqual([
      { issuedOn: "2026-10-02", amountPence: 6500, paid: false },
      { issuedOn: "2026-10-05", amountPence: 120050, paid: false },
    ]);
    expect(facts("CD34EFG")?.fines).toEqual([]);
    const paid = await importText("fines", [
      FINES,
      "AB12CDE,PCN-1,2026-10-02,65.00,yes",
    ]);
    expect(paid).toMatchObject({ counts: { changed: 1 } });
    expect(facts("AB12CDE")?.fines).toEqual([
      { issuedOn: "2026-10-02", amountPence: 6500, paid: true },
      { issuedOn: "2026-10-05", amountPence: 120050, paid: false },
    ]);
  });
});
