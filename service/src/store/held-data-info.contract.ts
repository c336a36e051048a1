// What a store does with the data's freshness and span (held-data-info.ts), whatever its
// engine: it reads `meta` once and again only after a write, and an import or a fetch changes
// what the next check reports. Run by each engine's test over a database that counts the
// store's reads of `meta`.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fetched, FIRST_FETCH } from "../testing/fetched.ts";
import {
  importer,
  POLICIES,
  policy,
  VEHICLES,
  vehicle,
} from "../testing/import-files.ts";
import type { ImportStore } from "./import-store.ts";
import type { Store } from "./store.ts";

export interface HeldDataInfoHarness {
  /** A migrated, empty store over a database that counts its reads of `meta`. */
  store: Store;
  /**
   * Imports into the store's database: the store itself (this process's imports), or an
   * import store over another connection (scripts/import's, another replica's).
   */
  imports: ImportStore;
  /** The store's reads of `meta` so far. */
  metaReads(): number;
  close(): Promise<void>;
}

export function heldDataInfoContract(open: () => Promise<HeldDataInfoHarness>) {
  let harness: HeldDataInfoHarness;
  beforeEach(async () => {
    harness = await open();
  });
  afterEach(() => harness.close());
  const files = importer(() => harness, "2026-11-24T06:00:00Z");

  describe("the data's freshness and span, held by the store", () => {
    it("is read from the database once while nothing changes, however many checks ask", async () => {
      const { store } = harness;
      const [first, overlapping] = await Promise.all([
        store.dataInfo(),
        store.dataInfo(),
      ]);
      await store.findVehicle("AB12CDE");
      expect(await store.dataInfo()).toEqual(first);
      expect(await store.dataInfo()).toEqual(overlapping);
      expect(harness.metaReads()).toBe(1);
    });

    it("changes on the next check after an import", async () => {
      expect(await harness.store.dataInfo()).toEqual({ asOf: {} });
      await files.run("vehicles", [VEHICLES, vehicle("AB12CDE")]);
      await files.run("policies", [POLICIES, policy("AB12CDE", "POL-1")], {
        dataAsOf: new Date("2026-11-24T05:00:00Z"),
      });
      expect(await harness.store.dataInfo()).toEqual({
        since: expect.any(String),
        historyFrom: "2026-02-01",
        asOf: { insurance: "2026-11-24T05:00:00.000Z" },
      });
      expect(await harness.store.dataInfo()).toMatchObject({
        historyFrom: "2026-02-01",
      });
      expect(harness.metaReads()).toBe(2);
    });

    it("changes on the next check after the store writes facts fetched from a register", async () => {
      expect(await harness.store.dataInfo()).toEqual({ asOf: {} });
      await harness.store.recordFetched([
        fetched({
          registration: "AB12CDE",
          vehicle: { make: "Ford", year: 2019, firstRegistered: "2019-03-01" },
          mot: {
            kind: "history",
            tests: [{ testedOn: "2026-02-02", expiresOn: "2027-02-01" }],
          },
        }),
      ]);
      expect(await harness.store.dataInfo()).toMatchObject({
        since: FIRST_FETCH,
        historyFrom: "2026-02-02",
      });
      expect(harness.metaReads()).toBe(2);
    });
  });
}
