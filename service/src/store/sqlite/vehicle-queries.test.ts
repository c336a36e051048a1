import { StatementSync } from "node:sqlite";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Store } from "../store.ts";
import { openDatabase } from "./database.ts";
import { migrateSqlite } from "./schema.ts";
import { openSqliteStore } from "./sqlite-store.ts";
import { createVehicleQueries } from "./vehicle-queries.ts";

const stores: Store[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

function seededStore(): Store {
  const store = openSqliteStore({
    path: ":memory:",
    seed: { fleetSize: 50, seed: 1, today: "2026-03-10" },
  });
  stores.push(store);
  return store;
}

describe("findVehicles", () => {
  it("runs one query for one registration or a thousand", async () => {
    const store = seededStore();
    const queries = vi.spyOn(StatementSync.prototype, "all");

    await store.findVehicles(["AB12CDE"]);
    expect(queries).toHaveBeenCalledTimes(1);

    queries.mockClear();
    const thousand = Array.from(
      { length: 1000 },
      (_, index) => `AB${String(index % 100).padStart(2, "0")}CDE`,
    );
    const found = await store.findVehicles(["FN19OUT", ...thousand]);
    expect(queries).toHaveBeenCalledTimes(1);
    expect(found.get("FN19OUT")?.fines).toHaveLength(3);
  });

  it("finds what findVehicle finds, children in their order, and nothing for unknown plates", async () => {
    const store = seededStore();
    const many = await store.findVehicles(["FN19OUT", "AB12CDE", "ZZ99ZZZ"]);
    expect([...many.keys()].sort()).toEqual(["AB12CDE", "FN19OUT"]);
    for (const registration of ["FN19OUT", "AB12CDE"]) {
      const one = await store.findVehicle(registration);
      expect(one).toEqual(many.get(registration));
      expect(one?.registration).toBe(registration);
    }
    const fined = many.get("FN19OUT");
    expect(fined?.fines.every((fine) => typeof fine.paid === "boolean")).toBe(
      true,
    );
    const insured = many.get("AB12CDE");
    expect(insured?.policies.length).toBeGreaterThan(0);
    const starts = insured?.policies.map((policy) => policy.validFrom) ?? [];
    expect(starts).toEqual([...starts].sort());
    expect(await store.findVehicle("ZZ99ZZZ")).toBeUndefined();
  });

  it("answers the single check with one statement", async () => {
    const store = seededStore();
    const get = vi.spyOn(StatementSync.prototype, "get");
    const all = vi.spyOn(StatementSync.prototype, "all");
    expect((await store.findVehicle("AB12CDE"))?.motTests.length).toBe(
      (await store.findVehicles(["AB12CDE"])).get("AB12CDE")?.motTests.length,
    );
    expect(get).toHaveBeenCalledTimes(1);
    expect(all).toHaveBeenCalledTimes(1);
  });
});

describe("the lookups' query plans", () => {
  // docs/decisions/020-covering-indexes.md: every table is read through a covering index, in
  // the order the answer lists it, so no lookup reads a table row or sorts.
  it("read every table through a covering index and sort nothing", () => {
    const db = openDatabase(":memory:");
    try {
      migrateSqlite(db);
      const prepare = vi.spyOn(db, "prepare");
      createVehicleQueries(db);
      const statements = prepare.mock.calls.map(([sql]) => sql);
      // Now, one and many; then as known at an instant, one and many (decision 041); then the
      // insurance checks', one and many, now and as known at an instant, which read no MOT
      // tests or fines.
      const shapes = [
        { knownAt: false, tables: 4 },
        { knownAt: false, tables: 4 },
        { knownAt: true, tables: 4 },
        { knownAt: true, tables: 4 },
        { knownAt: false, tables: 2 },
        { knownAt: true, tables: 2 },
        { knownAt: false, tables: 2 },
        { knownAt: true, tables: 2 },
      ];
      expect(statements).toHaveLength(shapes.length);
      prepare.mockRestore();
      for (const [index, sql] of statements.entries()) {
        const { knownAt, tables } = shapes[index]!;
        const plan = db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all(...(knownAt ? ["[]", "2026-03-10T00:00:00.000Z"] : ["[]"]))
          .map((row) => String(row.detail).trim());
        const reads = plan.filter((step) =>
          /^(SEARCH|SCAN) (v|vehicles|policies|mot_tests|fines)\b/.test(step),
        );
        expect(reads).toHaveLength(tables);
        for (const read of reads) expect(read).toContain("COVERING INDEX");
        // A kept version is found by the registration's index, never by a scan.
        const history = plan.filter((step) => /^(SEARCH|SCAN) h\b/.test(step));
        expect(history).toEqual(
          knownAt
            ? [
                expect.stringMatching(
                  /^SEARCH h USING INDEX vehicle_history_by_registration \(registration=/,
                ),
              ]
            : [],
        );
        expect(plan.join("\n")).not.toContain("TEMP B-TREE");
      }
    } finally {
      db.close();
    }
  });
});
