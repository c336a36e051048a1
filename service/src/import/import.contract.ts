// What an import does, whatever the engine (docs/import.md, decisions 040 and 041): run by
// each engine's test with a function that opens a fresh, migrated, empty database. Versions
// are read back through the store's own lookups as known at an instant.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { insurancePart } from "../store/store.ts";
import {
  importer,
  POLICIES,
  policy,
  rejectFile,
  VEHICLES,
  vehicle,
  type ImportHarness,
} from "../testing/import-files.ts";

const MOT = "registration,test_date,expiry_date";
const TAX = "registration,status,due_date";
const FINES = "registration,reference,issued_on,amount,paid";

export function importContract(open: () => Promise<ImportHarness>) {
  let harness: ImportHarness;
  beforeEach(async () => {
    harness = await open();
  });
  afterEach(() => harness.close());
  const files = importer(() => harness, "2026-11-24T06:00:00Z");
  // Every read of a vehicle also holds the insurance checks' reads to it (single and bulk), now
  // and at any instant.
  const facts = async (registration: string, knownAt?: string) => {
    const found = await harness.store.findVehicle(registration, knownAt);
    const insurance = found && insurancePart(found);
    expect(
      await harness.store.findInsurance(registration, knownAt),
      `findInsurance(${registration}, ${knownAt})`,
    ).toEqual(insurance);
    expect(
      (await harness.store.findInsurances([registration], knownAt)).get(
        registration,
      ),
      `findInsurances([${registration}], ${knownAt})`,
    ).toEqual(insurance);
    return found;
  };

  describe("vehicles and policies", () => {
    it("adds, then changes with the old version kept, and counts what it did", async () => {
      const first = await files.run("vehicles", [
        VEHICLES,
        vehicle("AB12CDE"),
        vehicle("CD34EFG"),
      ]);
      expect(first).toMatchObject({
        outcome: "applied",
        counts: { rows: 2, added: 2, changed: 0, unchanged: 0, rejected: 0 },
        examples: { added: ["AB12CDE", "CD34EFG"] },
      });
      expect(await harness.meta("fleet")).toBe("imported");
      const between = files.instant();

      const second = await files.run("vehicles", [
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
      expect((await facts("AB12CDE"))?.vehicle.color).toBe("Red");
      expect((await facts("AB12CDE", between))?.vehicle.color).toBe("Blue");
      // Unchanged: no version kept; added later: not known then.
      expect(await harness.count("vehicle_history")).toBe(1);
      expect(await facts("EF56GHI", between)).toBeUndefined();
      expect((await facts("EF56GHI"))?.vehicle.color).toBe("Blue");
    });

    it("keeps each policy version: a cancellation is a change, the old period known before it", async () => {
      await files.run("vehicles", [VEHICLES, vehicle("AB12CDE")]);
      await files.run("policies", [POLICIES, policy("AB12CDE", "POL-1")]);
      const before = files.instant();
      const cancelled = await files.run("policies", [
        POLICIES,
        policy("AB12CDE", "POL-1", "2026-06-30"),
      ]);
      expect(cancelled).toMatchObject({ counts: { changed: 1 } });
      expect((await facts("AB12CDE"))?.policies).toMatchObject([
        { number: "POL-1", validTo: "2026-06-30" },
      ]);
      expect((await facts("AB12CDE", before))?.policies).toMatchObject([
        { number: "POL-1", validTo: "2027-01-31" },
      ]);
      expect(await harness.count("vehicle_history")).toBe(2);
    });

    it("refuses a policy for a vehicle not on record, and every line of a key that repeats", async () => {
      await files.run("vehicles", [VEHICLES, vehicle("AB12CDE")]);
      const report = await files.run("policies", [
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
      expect(rejectFile(report).split("\r\n")).toEqual([
        "\uFEFFline,column,value,reason",
        "3,registration,ZZ99ZZZ,No vehicle ZZ99ZZZ is on record: import it in a vehicles file first.",
        '4,policy_number,AB12CDE POL-3,"The policy AB12CDE POL-3 is on lines 4, 5: a file may hold each policy once. None of those lines was imported."',
        '5,policy_number,AB12CDE POL-3,"The policy AB12CDE POL-3 is on lines 4, 5: a file may hold each policy once. None of those lines was imported."',
        "",
      ]);
      const kept = await harness.imports.importRejects(report.importId ?? 0);
      expect(kept.map((reject) => reject.line)).toEqual([3, 4, 5]);
    });

    it("changes nothing the second time it is given the same file", async () => {
      const lines = [VEHICLES, vehicle("AB12CDE")];
      const first = await files.run("vehicles", lines);
      const again = await files.run("vehicles", lines);
      expect(again).toMatchObject({
        outcome: "already-imported",
        earlier: { id: first.importId },
      });
      expect(await harness.count("vehicle_history")).toBe(0);
      const listed = await harness.imports.listImports(10);
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
      await files.run("vehicles", [
        VEHICLES,
        ...fleet.map((reg) => vehicle(reg)),
      ]);
      const snapshot = [VEHICLES, vehicle("AB10CDE")];
      const refused = await files.run("vehicles", snapshot, {
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
      expect(await harness.count("vehicles")).toBe(10);
      expect(await harness.count("vehicle_history")).toBe(0);
      const before = files.instant();

      const forced = await files.run("vehicles", snapshot, {
        mode: "snapshot",
        force: true,
      });
      expect(forced).toMatchObject({
        outcome: "applied",
        counts: { removed: 9 },
      });
      expect(await harness.count("vehicles")).toBe(1);
      expect(await harness.count("vehicle_history")).toBe(9);
      expect(await facts("AB11CDE")).toBeUndefined();
      expect((await facts("AB11CDE", before))?.registration).toBe("AB11CDE");
      const outcomes = (await harness.imports.listImports(10)).map(
        (row) => row.outcome,
      );
      expect(outcomes).toEqual(["applied", "refused", "applied"]);
    });

    it("does all the work on a dry run, says what would change, keeps nothing, and lists every refused line", async () => {
      await files.run("vehicles", [VEHICLES, vehicle("AB12CDE")]);
      const dry = await files.run(
        "vehicles",
        [
          VEHICLES,
          vehicle("AB12CDE", "Red"),
          vehicle("CD34EFG"),
          "XX,,,,,",
          vehicle("EF56GHI"),
          vehicle("EF56GHI", "Green"),
        ],
        { dryRun: true },
      );
      expect(dry).toMatchObject({
        outcome: "dry-run",
        counts: { added: 1, changed: 1, rejected: 3 },
        examples: { added: ["CD34EFG"], changed: ["AB12CDE"] },
      });
      expect(dry.importId).toBeUndefined();
      expect((await facts("AB12CDE"))?.vehicle.color).toBe("Blue");
      expect(await facts("CD34EFG")).toBeUndefined();
      expect(await harness.count("vehicle_history")).toBe(0);
      expect(await harness.count("imports")).toBe(1);
      // The repeated key's lines are found inside the transaction the dry run undoes.
      const lines = rejectFile(dry)
        .split("\r\n")
        .slice(1, -1)
        .map((line) => line.split(",")[0]);
      expect(new Set(lines)).toEqual(new Set(["4", "5", "6"]));
    });

    it("refuses a file with an unclosed quote whole, with its line in the reject file", async () => {
      const report = await files.run("vehicles", [
        VEHICLES,
        vehicle("AB12CDE"),
        'CD34EFG,"Ford,Focus,2019,Blue,2019-03-01',
        vehicle("EF56GHI"),
      ]);
      expect(report).toMatchObject({ outcome: "refused" });
      expect(await harness.count("vehicles")).toBe(0);
      const rejects = rejectFile(report);
      expect(rejects).toContain(
        `3,,,"A quote mark ("") opens a value on this line`,
      );
      expect(rejects).toContain("nothing was imported");
      // The data page finds the refusal and its one line.
      const id = report.importId ?? 0;
      expect(await harness.store.findImport(id)).toMatchObject({
        outcome: "refused",
        counts: { rows: 1, rejected: 1 },
      });
      expect(await harness.store.importRejects(id)).toEqual([
        expect.objectContaining({ line: 3, column: "" }),
      ]);
      expect(await harness.store.findImport(id + 1)).toBeUndefined();
    });

    it("writes a value a spreadsheet would run as a formula as text", async () => {
      const report = await files.run("vehicles", [
        VEHICLES,
        '=HYPERLINK("http://x"),Ford,Focus,2019,Blue,2019-03-01',
      ]);
      expect(rejectFile(report)).toContain(
        `2,registration,"'=HYPERLINK(""http://x"")"`,
      );
    });
  });

  describe("hostile files: nothing partial is left, every refused line is in the reject file", () => {
    const bytes = (...parts: (string | number[])[]) =>
      Buffer.concat(
        parts.map((part) =>
          typeof part === "string" ? Buffer.from(part) : Buffer.from(part),
        ),
      );
    it.each([
      [
        "Windows-1252 bytes in a file read as UTF-8",
        bytes(
          `${VEHICLES}\r\n${vehicle("CD34EFG")}\r\nEF56GHI,Citro`,
          [0xeb],
          "n,C3,2019,Blue,2019-03-01\r\n",
        ),
        3,
      ],
      [
        "a 10 MB line",
        bytes(
          `${VEHICLES}\n${vehicle("CD34EFG")}\n"${"x".repeat(10 * 1024 * 1024)}"\n`,
        ),
        3,
      ],
      [
        "an unclosed quote",
        bytes(`${VEHICLES}\n${vehicle("CD34EFG")}\n"EF56GHI,Ford\n`),
        3,
      ],
    ])("%s: refused whole, at its line", async (_what, file, line) => {
      await files.run("vehicles", [VEHICLES, vehicle("AB12CDE")]);
      const before = await harness.count("vehicles");
      const report = await files.run("vehicles", file);
      expect(report.outcome).toBe("refused");
      expect(await harness.count("vehicles")).toBe(before);
      expect(await facts("CD34EFG")).toBeUndefined();
      const rejects = rejectFile(report).split("\r\n");
      expect(rejects[1]).toMatch(new RegExp(`^${line},`));
    });

    it("a byte-order mark and CRLF: read as any file, every row applied", async () => {
      const report = await files.run(
        "vehicles",
        bytes(
          `\uFEFF${VEHICLES}\r\n${vehicle("AB12CDE")}\r\n${vehicle("CD34EFG")}\r\n`,
        ),
      );
      expect(report).toMatchObject({
        outcome: "applied",
        counts: { added: 2, rejected: 0 },
      });
    });

    it("rows that contradict each other: every line of the key refused, the rest applied", async () => {
      const report = await files.run("vehicles", [
        VEHICLES,
        vehicle("AB12CDE", "Red"),
        vehicle("CD34EFG"),
        vehicle("AB12CDE", "Blue"),
      ]);
      expect(report).toMatchObject({ counts: { added: 1, rejected: 2 } });
      expect(await facts("AB12CDE")).toBeUndefined();
      expect(rejectFile(report)).toContain("is on lines 2, 4");
    });
  });

  describe("JSON Lines", () => {
    it("imports the same records as CSV would, each line its own row", async () => {
      await files.run("vehicles", [VEHICLES, vehicle("AB12CDE")]);
      const report = await files.run(
        "policies",
        [
          JSON.stringify({
            registration: "AB12CDE",
            policy_number: "POL-1",
            insurer: "Northwind",
            cover_type: "Comprehensive",
            valid_from: "2026-02-01",
            valid_to: "2027-01-31",
          }),
          JSON.stringify({ registration: "AB12CDE", policy_number: "POL-2" }),
        ],
        { format: "jsonl" },
      );
      expect(report).toMatchObject({
        outcome: "applied",
        counts: { rows: 2, added: 1, rejected: 1 },
      });
      expect((await facts("AB12CDE"))?.policies).toMatchObject([
        { number: "POL-1", insurer: "Northwind" },
      ]);
      expect(rejectFile(report)).toContain(
        '2,insurer,,"The record has no insurer',
      );
    });
  });

  describe("MOT tests, road tax and fines", () => {
    beforeEach(async () => {
      await files.run("vehicles", [
        VEHICLES,
        vehicle("AB12CDE"),
        vehicle("CD34EFG"),
      ]);
    });

    it("MOT: adds tests, changes an expiry with the old one known before, refuses an unknown vehicle", async () => {
      const first = await files.run("mot", [
        MOT,
        "AB12CDE,2025-02-20,2026-02-28",
        "AB12CDE,2026-02-20,2027-02-28",
        "ZZ99ZZZ,2026-02-20,2027-02-28",
      ]);
      expect(first).toMatchObject({
        outcome: "applied",
        counts: { rows: 3, added: 2, rejected: 1 },
      });
      expect((await facts("AB12CDE"))?.motTests).toEqual([
        { testedOn: "2025-02-20", expiresOn: "2026-02-28" },
        { testedOn: "2026-02-20", expiresOn: "2027-02-28" },
      ]);
      const before = files.instant();
      const corrected = await files.run("mot", [
        MOT,
        "AB12CDE,2026-02-20,2027-02-19",
      ]);
      expect(corrected).toMatchObject({ counts: { changed: 1 } });
      expect(
        (await facts("AB12CDE"))?.motTests.map((test) => test.expiresOn),
      ).toEqual(["2026-02-28", "2027-02-19"]);
      expect(
        (await facts("AB12CDE", before))?.motTests.map(
          (test) => test.expiresOn,
        ),
      ).toEqual(["2026-02-28", "2027-02-28"]);
    });

    it("road tax: a state per vehicle, added, changed to SORN, and removed by a snapshot", async () => {
      const first = await files.run("tax", [
        TAX,
        "AB12CDE,taxed,2027-03-31",
        "CD34EFG,taxed,2027-01-31",
      ]);
      expect(first).toMatchObject({ counts: { added: 2 } });
      expect((await facts("AB12CDE"))?.tax).toEqual({
        sorn: false,
        dueDate: "2027-03-31",
      });
      const snapshot = await files.run(
        "tax",
        [TAX, "AB12CDE,SORN,", "CD34EFG,taxed,2027-01-31"],
        { mode: "snapshot" },
      );
      expect(snapshot).toMatchObject({
        counts: { changed: 1, unchanged: 1, removed: 0 },
      });
      expect((await facts("AB12CDE"))?.tax).toEqual({
        sorn: true,
        dueDate: null,
      });
      const removed = await files.run("tax", [TAX, "AB12CDE,SORN,"], {
        mode: "snapshot",
        force: true,
      });
      expect(removed).toMatchObject({
        counts: { unchanged: 1, removed: 1 },
        examples: { removed: ["CD34EFG"] },
      });
      expect((await facts("CD34EFG"))?.tax).toEqual({
        sorn: false,
        dueDate: null,
      });
    });

    it("fines: matched by reference, a payment is a change, a repeated reference refused", async () => {
      const first = await files.run("fines", [
        FINES,
        "AB12CDE,PCN-1,2026-10-02,65.00,no",
        'AB12CDE,PCN-2,2026-10-05,"£1,200.50",no',
        "CD34EFG,PCN-3,2026-06-18,130,yes",
        "CD34EFG,PCN-3,2026-06-18,130,no",
      ]);
      expect(first).toMatchObject({ counts: { added: 2, rejected: 2 } });
      expect((await facts("AB12CDE"))?.fines).toEqual([
        { issuedOn: "2026-10-02", amountPence: 6500, paid: false },
        { issuedOn: "2026-10-05", amountPence: 120050, paid: false },
      ]);
      expect((await facts("CD34EFG"))?.fines).toEqual([]);
      const paid = await files.run("fines", [
        FINES,
        "AB12CDE,PCN-1,2026-10-02,65.00,yes",
      ]);
      expect(paid).toMatchObject({ counts: { changed: 1 } });
      expect((await facts("AB12CDE"))?.fines).toEqual([
        { issuedOn: "2026-10-02", amountPence: 6500, paid: true },
        { issuedOn: "2026-10-05", amountPence: 120050, paid: false },
      ]);
      const snapshot = await files.run(
        "fines",
        [FINES, "AB12CDE,PCN-2,2026-10-05,1200.50,no"],
        { mode: "snapshot", force: true },
      );
      expect(snapshot).toMatchObject({
        counts: { unchanged: 1, removed: 1 },
        examples: { removed: ["AB12CDE PCN-1"] },
      });
      expect((await facts("AB12CDE"))?.fines).toEqual([
        { issuedOn: "2026-10-05", amountPence: 120050, paid: false },
      ]);
    });
  });

  describe("what the answers learn of the data (decision 041)", () => {
    it("holds data from the first import, each source as of its file, the history from its first day", async () => {
      expect(await harness.store.dataInfo()).toEqual({ asOf: {} });
      const started = files.instant();
      await files.run("vehicles", [VEHICLES, vehicle("AB12CDE")]);
      await files.run(
        "policies",
        [POLICIES, policy("AB12CDE", "POL-1", "2026-01-31", "2025-02-01")],
        { dataAsOf: new Date("2026-11-24T05:00:00Z") },
      );
      await files.run("mot", [MOT, "AB12CDE,2024-11-02,2025-11-01"]);
      const info = await harness.store.dataInfo();
      expect(info).toEqual({
        since: expect.any(String),
        historyFrom: "2024-11-02",
        asOf: {
          insurance: "2026-11-24T05:00:00.000Z",
          mot: expect.any(String),
        },
      });
      expect(info.since! > started).toBe(true);
      // A later file with a later first day leaves the history's start where it was.
      await files.run("policies", [POLICIES, policy("AB12CDE", "POL-2")]);
      expect((await harness.store.dataInfo()).historyFrom).toBe("2024-11-02");
      const listed = await harness.imports.listImports(1);
      expect(listed[0]?.dataAsOf).toBe(listed[0]?.startedAt);
    });
  });
}
