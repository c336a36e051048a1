// An import's road tax and MOT against facts a live register gave (issue 35, point 4): the
// newer one wins, by the file's --as-of against the register's fetch, and both versions stay
// known. Run by each engine's import test beside the import contract.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fetched } from "../testing/fetched.ts";
import {
  type ImportHarness,
  importer,
  VEHICLES,
  vehicle,
} from "../testing/import-files.ts";

const TAX = "registration,status,due_date";
const MOT = "registration,test_date,expiry_date";
/** The register answers here; the files below are as of just before it, or just after. */
const FETCHED = "2026-11-25T08:00:00.000Z";
const OLDER = new Date("2026-11-25T06:00:00Z");
const NEWER = new Date("2026-11-26T06:00:00Z");
const justBefore = (at: string) => new Date(Date.parse(at) - 1).toISOString();

export function registerNewerContract(open: () => Promise<ImportHarness>) {
  let harness: ImportHarness;
  beforeEach(async () => {
    harness = await open();
  });
  afterEach(() => harness.close());
  const files = importer(() => harness, "2026-11-24T06:00:00Z");
  const store = () => harness.store;
  const tax = async (registration: string, knownAt?: string) =>
    (await store().findVehicle(registration, knownAt))?.tax;
  const expiries = async (registration: string, knownAt?: string) =>
    (await store().findVehicle(registration, knownAt))?.motTests.map(
      (test) => `${test.testedOn} ${test.expiresOn}`,
    );
  const marks = async (registration: string) =>
    (await store().freshness([registration])).get(registration);

  describe("against a live register's facts: the newer one wins", () => {
    beforeEach(async () => {
      await files.run("vehicles", [
        VEHICLES,
        vehicle("AB12CDE"),
        vehicle("CD34EFG"),
      ]);
    });

    it("road tax: a file older than the register's fetch changes and removes nothing of it; a newer one replaces it and the answer no longer names the register", async () => {
      await files.run("tax", [
        TAX,
        "AB12CDE,taxed,2027-03-31",
        "CD34EFG,taxed,2027-01-31",
      ]);
      const imported = files.instant();
      await store().recordFetched([
        fetched(
          {
            registration: "AB12CDE",
            tax: { sorn: true, dueDate: null },
          },
          FETCHED,
        ),
        fetched(
          {
            registration: "CD34EFG",
            tax: { sorn: false, dueDate: "2027-01-31" },
          },
          FETCHED,
        ),
      ]);
      const taxed = { sorn: false, dueDate: "2027-03-31" };
      const sorn = { sorn: true, dueDate: null };
      expect(await tax("AB12CDE", justBefore(FETCHED))).toEqual(taxed);
      expect(await tax("AB12CDE")).toEqual(sorn);

      files.at("2026-11-26T07:00:00Z");
      const older = await files.run("tax", [TAX, "AB12CDE,taxed,2027-03-31"], {
        mode: "snapshot",
        force: true,
        dataAsOf: OLDER,
      });
      expect(older).toMatchObject({
        outcome: "applied",
        counts: { rows: 1, added: 0, changed: 0, unchanged: 1, removed: 0 },
        examples: { kept: ["AB12CDE", "CD34EFG"], keptCount: 2 },
      });
      expect(await tax("AB12CDE")).toEqual(sorn);
      expect(await tax("CD34EFG")).toEqual({
        sorn: false,
        dueDate: "2027-01-31",
      });
      const mark = { source: "dvla-ves", fetchedAt: FETCHED };
      expect((await marks("AB12CDE"))?.tax).toEqual(mark);
      expect((await marks("CD34EFG"))?.tax).toEqual(mark);

      const beforeNewer = files.instant();
      const newer = await files.run(
        "tax",
        [TAX, "AB12CDE,taxed,2027-11-30", "CD34EFG,taxed,2027-01-31"],
        { dataAsOf: NEWER },
      );
      expect(newer).toMatchObject({
        counts: { changed: 1, unchanged: 1 },
        examples: { changed: ["AB12CDE"], kept: [], keptCount: 0 },
      });
      expect(await tax("AB12CDE")).toEqual({
        sorn: false,
        dueDate: "2027-11-30",
      });
      // Every version is still known at its instant: the first import's, the register's.
      expect(await tax("AB12CDE", beforeNewer)).toEqual(sorn);
      expect(await tax("AB12CDE", imported)).toEqual(taxed);
      // The changed vehicle's tax is VICS's own now; the unchanged one still names DVLA.
      expect((await marks("AB12CDE"))?.tax).toBeUndefined();
      expect((await marks("CD34EFG"))?.tax).toEqual(mark);
    });

    it("MOT: an older file adds only earlier tests to the register's history; a newer one changes an expiry and the answer no longer names the register", async () => {
      await files.run("mot", [
        MOT,
        "AB12CDE,2025-02-20,2026-02-28",
        "AB12CDE,2026-02-20,2027-02-28",
      ]);
      await store().recordFetched([
        fetched(
          {
            registration: "AB12CDE",
            mot: {
              kind: "history",
              tests: [
                { testedOn: "2026-02-20", expiresOn: "2027-02-19" },
                { testedOn: "2026-11-20", expiresOn: "2027-11-19" },
              ],
            },
          },
          FETCHED,
          "dvsa-mot-history",
        ),
      ]);
      const registers = [
        "2025-02-20 2026-02-28",
        "2026-02-20 2027-02-19",
        "2026-11-20 2027-11-19",
      ];
      expect(await expiries("AB12CDE")).toEqual(registers);

      files.at("2026-11-26T07:00:00Z");
      const older = await files.run(
        "mot",
        [
          MOT,
          "AB12CDE,2026-02-20,2027-02-28",
          "AB12CDE,2024-02-20,2025-02-28",
          "AB12CDE,2026-11-24,2027-11-23",
          "CD34EFG,2026-01-10,2027-01-09",
        ],
        { dataAsOf: OLDER },
      );
      expect(older).toMatchObject({
        counts: { rows: 4, added: 2, changed: 0, unchanged: 2 },
        examples: {
          added: ["AB12CDE 2024-02-20", "CD34EFG 2026-01-10"],
          kept: ["AB12CDE 2026-02-20", "AB12CDE 2026-11-24"],
          keptCount: 2,
        },
      });
      const filled = ["2024-02-20 2025-02-28", ...registers];
      expect(await expiries("AB12CDE")).toEqual(filled);
      // An earlier test only fills the history: the current certificate is still DVSA's.
      const mark = { source: "dvsa-mot-history", fetchedAt: FETCHED };
      expect((await marks("AB12CDE"))?.mot).toEqual(mark);

      const beforeNewer = files.instant();
      const newer = await files.run(
        "mot",
        [MOT, "AB12CDE,2026-11-20,2027-11-30"],
        { dataAsOf: NEWER },
      );
      expect(newer).toMatchObject({
        counts: { changed: 1 },
        examples: { kept: [], keptCount: 0 },
      });
      expect(await expiries("AB12CDE")).toEqual([
        ...filled.slice(0, 3),
        "2026-11-20 2027-11-30",
      ]);
      expect(await expiries("AB12CDE", beforeNewer)).toEqual(filled);
      expect(await expiries("AB12CDE", justBefore(FETCHED))).toEqual([
        "2025-02-20 2026-02-28",
        "2026-02-20 2027-02-28",
      ]);
      expect((await marks("AB12CDE"))?.mot).toBeUndefined();
    });

    it("a vehicle a snapshot removes loses its marks: added again, it is stale and its facts are the file's", async () => {
      await store().recordFetched([
        fetched(
          {
            registration: "CD34EFG",
            tax: { sorn: true, dueDate: null },
          },
          FETCHED,
        ),
      ]);
      expect(await store().countStale("tax", FETCHED)).toBe(1);
      await files.run("vehicles", [VEHICLES, vehicle("AB12CDE")], {
        mode: "snapshot",
        force: true,
      });
      expect(await marks("CD34EFG")).toBeUndefined();
      expect(await store().countStale("tax", FETCHED)).toBe(1);
      await files.run("vehicles", [VEHICLES, vehicle("CD34EFG")]);
      expect(await marks("CD34EFG")).toBeUndefined();
      expect(await store().countStale("tax", FETCHED)).toBe(2);
    });

    it("a dry run says what it would keep and clears no mark", async () => {
      await store().recordFetched([
        fetched(
          {
            registration: "AB12CDE",
            tax: { sorn: true, dueDate: null },
          },
          FETCHED,
        ),
      ]);
      files.at("2026-11-26T07:00:00Z");
      const older = await files.run(
        "tax",
        [TAX, "AB12CDE,taxed,2027-03-31", "CD34EFG,taxed,2027-03-31"],
        { dataAsOf: OLDER, dryRun: true },
      );
      expect(older).toMatchObject({
        outcome: "dry-run",
        counts: { added: 1, unchanged: 1 },
        examples: { added: ["CD34EFG"], kept: ["AB12CDE"], keptCount: 1 },
      });
      await files.run("tax", [TAX, "AB12CDE,taxed,2027-03-31"], {
        dataAsOf: NEWER,
        dryRun: true,
      });
      expect((await marks("AB12CDE"))?.tax).toEqual({
        source: "dvla-ves",
        fetchedAt: FETCHED,
      });
      expect(await tax("AB12CDE")).toEqual({ sorn: true, dueDate: null });
    });
  });
}
