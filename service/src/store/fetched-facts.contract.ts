// What every store does with facts fetched from live sources (fetched-facts.ts), whatever
// its engine: run by each engine's store test with a function that opens a fresh, migrated
// store. Versions are read back through the store's own lookups as known at an instant.
import { afterEach, describe, expect, it } from "vitest";
import { seedVehicles, type SeedOptions } from "../seed/seed-data.ts";
import { fetched, FIRST_FETCH } from "../testing/fetched.ts";
import type { MotTest } from "../domain/compliance.ts";
import { COLOR_NOT_GIVEN, MODEL_NOT_GIVEN } from "./fetched-facts.ts";
import { CONTRACT_FLEET, type OpenStore } from "./store.contract.ts";
import type { Store } from "./store.ts";

/** Small: every test seeds its own. Seeded on 2026-03-10; every fetch here is later. */
const FLEET: SeedOptions = { ...CONTRACT_FLEET, fleetSize: 20 };
const T1 = FIRST_FETCH;
const T2 = "2026-03-12T08:00:00.000Z";
const justBefore = (at: string) => new Date(Date.parse(at) - 1).toISOString();

const newVehicle = { make: "Ford", year: 2019, firstRegistered: "2019-03-01" };

export function fetchedFactsContract(open: OpenStore) {
  const opened: Store[] = [];
  const openStore = async (fleet?: SeedOptions) => {
    const store = await open(fleet);
    opened.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  describe("a vehicle VICS does not hold", () => {
    it("is added from the answer's details, its missing colour and model said so; without make, year and first registration it is skipped", async () => {
      const store = await openStore();
      const counts = await store.recordFetched([
        fetched({
          registration: "AB12CDE",
          vehicle: newVehicle,
          tax: { sorn: false, dueDate: "2027-01-31" },
          mot: { kind: "expiry", expiresOn: "2027-02-01" },
        }),
        fetched({ registration: "XY99ZZZ", vehicle: { make: "Ford" } }),
      ]);
      expect(counts).toEqual({
        added: 1,
        changed: 0,
        unchanged: 0,
        skipped: 1,
      });
      expect(await store.findVehicle("AB12CDE")).toEqual({
        registration: "AB12CDE",
        vehicle: {
          make: "Ford",
          model: MODEL_NOT_GIVEN,
          year: 2019,
          color: COLOR_NOT_GIVEN,
        },
        firstRegistered: "2019-03-01",
        lastUpdated: T1,
        policies: [],
        motTests: [{ testedOn: "2026-02-02", expiresOn: "2027-02-01" }],
        tax: { sorn: false, dueDate: "2027-01-31" },
        fines: [],
      });
      expect(
        await store.findVehicle("AB12CDE", justBefore(T1)),
      ).toBeUndefined();
      expect(await store.findVehicle("XY99ZZZ")).toBeUndefined();
      const fresh = await store.freshness(["AB12CDE", "XY99ZZZ"]);
      expect([...fresh.keys()]).toEqual(["AB12CDE"]);
      const mark = { source: "dvla-ves", fetchedAt: T1 };
      expect(fresh.get("AB12CDE")).toEqual({
        tax: mark,
        mot: mark,
        vehicle: mark,
      });
      // A database whose first data is a fetch: held from then, covering its first test.
      expect(await store.dataInfo()).toMatchObject({
        since: T1,
        historyFrom: "2026-02-02",
      });
    });

    it("takes the given colour and model", async () => {
      const store = await openStore();
      const vehicle = { ...newVehicle, model: "Focus", color: "Blue" };
      await store.recordFetched([
        fetched({ registration: "AB12CDE", vehicle }),
      ]);
      expect((await store.findVehicle("AB12CDE"))?.vehicle).toEqual({
        make: "Ford",
        model: "Focus",
        year: 2019,
        color: "Blue",
      });
    });
  });

  describe("road tax", () => {
    it("a change is a new version; the old one is still known before the fetch", async () => {
      const store = await openStore(FLEET);
      const before = await store.findVehicle("AB12CDE");
      const sorn = { sorn: true, dueDate: null };
      const counts = await store.recordFetched([
        fetched({ registration: "AB12CDE", tax: sorn }),
      ]);
      expect(counts).toEqual({
        added: 0,
        changed: 1,
        unchanged: 0,
        skipped: 0,
      });
      const after = await store.findVehicle("AB12CDE");
      expect(after).toEqual({ ...before, tax: sorn, lastUpdated: T1 });
      expect(await store.findVehicle("AB12CDE", justBefore(T1))).toEqual(
        before,
      );
      expect(await store.findVehicle("AB12CDE", T1)).toEqual(after);
      const many = await store.findVehicles(
        ["AB12CDE", "FN19OUT"],
        justBefore(T1),
      );
      expect(many.get("AB12CDE")).toEqual(before);
      expect(
        (await store.findInsurance("AB12CDE", justBefore(T1)))?.lastUpdated,
      ).toBe(before?.lastUpdated);
    });

    it("the same tax writes no version, and is marked fresh all the same", async () => {
      const store = await openStore(FLEET);
      const before = await store.findVehicle("AB12CDE");
      const counts = await store.recordFetched([
        fetched({ registration: "AB12CDE", tax: before!.tax }),
      ]);
      expect(counts).toEqual({
        added: 0,
        changed: 0,
        unchanged: 1,
        skipped: 0,
      });
      expect(await store.findVehicle("AB12CDE")).toEqual(before);
      expect((await store.freshness(["AB12CDE"])).get("AB12CDE")).toEqual({
        tax: { source: "dvla-ves", fetchedAt: T1 },
      });
    });
  });

  describe("MOT", () => {
    it("a history upserts each test by its date and keeps the tests it lacks", async () => {
      const store = await openStore(FLEET);
      const mot = (tests: MotTest[], at: string) =>
        store.recordFetched([
          fetched(
            { registration: "AB12CDE", mot: { kind: "history", tests } },
            at,
            "dvsa-mot-history",
          ),
        ]);
      const seeded = (await store.findVehicle("AB12CDE"))!.motTests;
      expect(seeded).toHaveLength(1);
      const older = { testedOn: "2025-01-05", expiresOn: "2026-01-04" };
      expect(await mot([older], T1)).toMatchObject({ changed: 1 });
      const before = await store.findVehicle("AB12CDE");
      expect(before?.motTests).toEqual([older, ...seeded]);
      const renewed = {
        testedOn: seeded[0]!.testedOn,
        expiresOn: "2030-01-01",
      };
      const newest = { testedOn: "2026-03-11", expiresOn: "2027-03-10" };
      expect(await mot([renewed, newest], T2)).toMatchObject({ changed: 1 });
      const after = await store.findVehicle("AB12CDE");
      expect(after?.motTests).toEqual([older, renewed, newest]);
      expect(after?.lastUpdated).toBe(T2);
      expect(await store.findVehicle("AB12CDE", justBefore(T2))).toEqual(
        before,
      );
      expect((await store.freshness(["AB12CDE"])).get("AB12CDE")).toEqual({
        mot: { source: "dvsa-mot-history", fetchedAt: T2 },
      });
      expect(await mot([older, renewed], T2)).toMatchObject({ unchanged: 1 });
    });

    it("an earlier test moves the history's first day back; data held since is kept", async () => {
      const store = await openStore(FLEET);
      const info = await store.dataInfo();
      const early = { testedOn: "1990-01-02", expiresOn: "1991-01-01" };
      await store.recordFetched([
        fetched({
          registration: "AB12CDE",
          mot: { kind: "history", tests: [early] },
        }),
      ]);
      expect(await store.dataInfo()).toEqual({
        ...info,
        historyFrom: "1990-01-02",
      });
    });

    it("an expiry adds a test a year less a day before it, never dated after the fetch's UK day", async () => {
      const store = await openStore();
      await store.recordFetched([
        fetched({ registration: "AB12CDE", vehicle: newVehicle }),
      ]);
      const expiry = (expiresOn: string | null, at: string) =>
        store.recordFetched([
          fetched(
            { registration: "AB12CDE", mot: { kind: "expiry", expiresOn } },
            at,
          ),
        ]);
      expect(await expiry("2027-01-10", T1)).toMatchObject({ changed: 1 });
      // 23:30 UTC on 30 June is 1 July in the UK: an early test is dated that UK day.
      expect(
        await expiry("2027-08-15", "2026-06-30T23:30:00.000Z"),
      ).toMatchObject({
        changed: 1,
      });
      expect(
        await expiry("2027-08-15", "2026-07-01T08:00:00.000Z"),
      ).toMatchObject({
        unchanged: 1,
      });
      expect(await expiry(null, "2026-07-02T08:00:00.000Z")).toMatchObject({
        unchanged: 1,
      });
      const found = await store.findVehicle("AB12CDE");
      expect(found?.motTests).toEqual([
        { testedOn: "2026-01-11", expiresOn: "2027-01-10" },
        { testedOn: "2026-07-01", expiresOn: "2027-08-15" },
      ]);
      expect(found?.lastUpdated).toBe("2026-06-30T23:30:00.000Z");
      expect((await store.freshness(["AB12CDE"])).get("AB12CDE")?.mot).toEqual({
        source: "dvla-ves",
        fetchedAt: "2026-07-02T08:00:00.000Z",
      });
    });
  });

  describe("vehicle details", () => {
    it("never overwrite the ones VICS holds", async () => {
      const store = await openStore(FLEET);
      const before = await store.findVehicle("AB12CDE");
      const counts = await store.recordFetched([
        fetched({
          registration: "AB12CDE",
          vehicle: { make: "Kia", model: "Niro", color: "Pink", year: 1999 },
        }),
      ]);
      expect(counts).toMatchObject({ unchanged: 1 });
      expect(await store.findVehicle("AB12CDE")).toEqual(before);
      expect(
        (await store.freshness(["AB12CDE"])).get("AB12CDE")?.vehicle,
      ).toEqual({
        source: "dvla-ves",
        fetchedAt: T1,
      });
    });

    it("replace a model the register did not give, keeping the version that lacked it", async () => {
      const store = await openStore();
      await store.recordFetched([
        fetched({ registration: "AB12CDE", vehicle: newVehicle }),
      ]);
      const before = await store.findVehicle("AB12CDE");
      const counts = await store.recordFetched([
        fetched(
          { registration: "AB12CDE", vehicle: { model: "Focus" } },
          T2,
          "dvsa-mot-history",
        ),
      ]);
      expect(counts).toMatchObject({ changed: 1 });
      expect((await store.findVehicle("AB12CDE"))?.vehicle.model).toBe("Focus");
      expect(
        (await store.findInsurance("AB12CDE", justBefore(T2)))?.vehicle.model,
      ).toBe(MODEL_NOT_GIVEN);
      expect(await store.findVehicle("AB12CDE", justBefore(T2))).toEqual(
        before,
      );
    });
  });

  describe("a batch", () => {
    it("takes many vehicles and both sources at once, counted per vehicle, each kind's latest fetch fresh", async () => {
      const store = await openStore(FLEET);
      const taxed = { sorn: false, dueDate: "2027-03-31" };
      const held = await store.findVehicle("TX19NON");
      const counts = await store.recordFetched([
        fetched(
          {
            registration: "AB12CDE",
            tax: taxed,
            mot: { kind: "expiry", expiresOn: null },
          },
          T1,
        ),
        fetched(
          {
            registration: "AB12CDE",
            mot: { kind: "history", tests: [] },
            vehicle: {},
          },
          T2,
          "dvsa-mot-history",
        ),
        fetched({ registration: "TX19NON", tax: held!.tax }),
        fetched({ registration: "NE26WVH", vehicle: newVehicle, tax: taxed }),
        fetched({ registration: "NO26DET", tax: taxed }),
      ]);
      expect(counts).toEqual({
        added: 1,
        changed: 1,
        unchanged: 1,
        skipped: 1,
      });
      expect((await store.findVehicle("AB12CDE"))?.tax).toEqual(taxed);
      expect((await store.findVehicle("NE26WVH"))?.tax).toEqual(taxed);
      const fresh = await store.freshness([
        "AB12CDE",
        "TX19NON",
        "NE26WVH",
        "NO26DET",
      ]);
      expect(fresh.get("AB12CDE")).toEqual({
        tax: { source: "dvla-ves", fetchedAt: T1 },
        mot: { source: "dvsa-mot-history", fetchedAt: T2 },
        vehicle: { source: "dvsa-mot-history", fetchedAt: T2 },
      });
      expect(fresh.get("TX19NON")).toEqual({
        tax: { source: "dvla-ves", fetchedAt: T1 },
      });
      expect(fresh.has("NO26DET")).toBe(false);
      expect(fresh.size).toBe(3);
    });

    it("two batches at once that add the same vehicle add it once", async () => {
      const store = await openStore();
      const add = () =>
        store.recordFetched([
          fetched({ registration: "AB12CDE", vehicle: newVehicle }),
        ]);
      const both = await Promise.all([add(), add()]);
      expect(both.map((counts) => counts.added).sort()).toEqual([0, 1]);
      expect(both.map((counts) => counts.unchanged).sort()).toEqual([0, 1]);
      expect((await store.findVehicle("AB12CDE"))?.vehicle.make).toBe("Ford");
    });

    it("an older fetch that arrives late leaves the fresher mark as it was", async () => {
      const store = await openStore(FLEET);
      const tax = (await store.findVehicle("AB12CDE"))!.tax;
      await store.recordFetched([
        fetched({ registration: "AB12CDE", tax }, T2),
      ]);
      await store.recordFetched([
        fetched({ registration: "AB12CDE", tax }, T1, "dvsa-mot-history"),
      ]);
      expect((await store.freshness(["AB12CDE"])).get("AB12CDE")).toEqual({
        tax: { source: "dvla-ves", fetchedAt: T2 },
      });
    });
  });

  describe("the kinds a source was asked for", () => {
    it("are each marked fresh when the answer lacks them, and nothing else changes", async () => {
      const store = await openStore(FLEET);
      const before = await store.findVehicle("AB12CDE");
      const stale = await store.countStale("tax", T1);
      // A VES answer of Taxed with no due date: no tax fact, and none of MOT either.
      const counts = await store.recordFetched([
        {
          ...fetched({ registration: "AB12CDE", vehicle: {} }, T1),
          asked: ["tax", "mot"],
        },
      ]);
      expect(counts).toEqual({
        added: 0,
        changed: 0,
        unchanged: 1,
        skipped: 0,
      });
      expect(await store.findVehicle("AB12CDE")).toEqual(before);
      const mark = { source: "dvla-ves", fetchedAt: T1 };
      expect((await store.freshness(["AB12CDE"])).get("AB12CDE")).toEqual({
        tax: mark,
        mot: mark,
        vehicle: mark,
      });
      expect(await store.countStale("tax", T1)).toBe(stale - 1);
      expect(await store.countStale("mot", T1)).toBe(stale - 1);
    });
  });

  describe("freshness and staleness", () => {
    it("counts the held vehicles whose kind is stale or never fetched", async () => {
      const store = await openStore(FLEET);
      const all = [...seedVehicles(FLEET)].map((v) => v.registration).sort();
      const batch = ["AB12CDE", "FN19OUT"].map(async (registration) =>
        fetched({
          registration,
          tax: (await store.findVehicle(registration))!.tax,
        }),
      );
      await store.recordFetched(await Promise.all(batch));
      expect(await store.countStale("tax", T1)).toBe(all.length - 2);
      expect(await store.countStale("tax", justBefore(T1))).toBe(
        all.length - 2,
      );
      expect(await store.countStale("tax", "2026-03-11T08:00:00.001Z")).toBe(
        all.length,
      );
      expect(await store.countStale("mot", T1)).toBe(all.length);
    });
  });

  describe("the sources' outcomes", () => {
    it("keep each source's last success and last error, never moved back by an older one", async () => {
      const store = await openStore();
      // A source never heard from has no state; the route says so (routes/registers.ts).
      expect(await store.sourceStates()).toEqual([]);
      await store.recordSourceOutcome({ source: "dvla-ves", at: T1, ok: true });
      const quota = {
        kind: "quota" as const,
        message: "The daily quota is spent.",
      };
      await store.recordSourceOutcome({
        source: "dvla-ves",
        at: T2,
        ok: false,
        ...quota,
      });
      await store.recordSourceOutcome({
        source: "dvla-ves",
        at: justBefore(T1),
        ok: true,
      });
      await store.recordSourceOutcome({
        source: "dvla-ves",
        at: T1,
        ok: false,
        kind: "credentials",
        message: "older",
      });
      const key = {
        kind: "credentials" as const,
        message: "The key was refused.",
      };
      await store.recordSourceOutcome({
        source: "dvsa-mot-history",
        at: T1,
        ok: false,
        ...key,
      });
      expect(await store.sourceStates()).toEqual([
        {
          source: "dvla-ves",
          lastSuccessAt: T1,
          lastErrorAt: T2,
          lastError: quota,
        },
        {
          source: "dvsa-mot-history",
          lastSuccessAt: null,
          lastErrorAt: T1,
          lastError: key,
        },
      ]);
    });
  });
}
