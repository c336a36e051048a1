import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { DuplicateKeyNameError, type Store } from "../store.ts";
import { LOOKUP_INDEXES } from "./schema.ts";
import { openSqliteStore } from "./sqlite-store.ts";

const seed = { fleetSize: 50, seed: 1, today: "2026-03-10" };
const stores: Store[] = [];
function open(path = ":memory:"): Store {
  const store = openSqliteStore({ path, seed });
  stores.push(store);
  return store;
}
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

const key = (name: string, keyHash = `hash-${name}`) => ({
  name,
  plan: "trial" as const,
  keyHash,
  createdAt: "2026-03-10T10:00:00.000Z",
});

describe("sqlite store: vehicles", () => {
  it("finds one vehicle with its policies, MOT, tax and fines", async () => {
    const facts = await open().findVehicle("FN19OUT");
    expect(facts?.vehicle).toEqual({
      make: "Skoda",
      model: "Octavia",
      year: 2019,
      color: "Green",
    });
    expect(facts?.policies).toHaveLength(1);
    expect(facts?.motExpiries).toEqual(["2027-01-08"]);
    expect(facts?.tax).toEqual({ sorn: false, dueDate: "2026-09-06" });
    expect(facts?.fines.map((fine) => fine.paid)).toEqual([true, false, false]);
  });

  it("is undefined for an unknown registration", async () => {
    expect(await open().findVehicle("ZZ99ZZZ")).toBeUndefined();
  });

  it("finds many at once, leaving out unknown ones", async () => {
    const found = await open().findVehicles([
      "AB12CDE",
      "ZZ99ZZZ",
      "SR19ORN",
      "AB12CDE",
    ]);
    expect([...found.keys()].sort()).toEqual(["AB12CDE", "SR19ORN"]);
    expect(found.get("SR19ORN")?.tax.sorn).toBe(true);
    expect((await open().findVehicles([])).size).toBe(0);
  });

  it("records that it holds the synthetic fleet", async () => {
    expect(await open().holdsSyntheticFleet()).toBe(true);
  });
});

describe("sqlite store: keys", () => {
  it("creates, finds by hash, lists and revokes", async () => {
    const store = open();
    const created = await store.createKey(key("ops"));
    expect(created).toMatchObject({
      name: "ops",
      plan: "trial",
      revokedAt: null,
    });
    expect(await store.findKeyByHash("hash-ops")).toEqual(created);
    expect(await store.findKeyByHash("nope")).toBeUndefined();
    await store.createKey(key("web"));
    expect((await store.listKeys()).map((k) => k.name)).toEqual(["ops", "web"]);
    const revoked = await store.revokeKey("ops", "2026-03-11T00:00:00.000Z");
    expect(revoked?.revokedAt).toBe("2026-03-11T00:00:00.000Z");
    const again = await store.revokeKey("ops", "2026-03-12T00:00:00.000Z");
    expect(again?.revokedAt).toBe("2026-03-11T00:00:00.000Z");
    expect(
      await store.revokeKey("missing", "2026-03-12T00:00:00.000Z"),
    ).toBeUndefined();
  });

  it("refuses a duplicate name with a typed error", async () => {
    const store = open();
    await store.createKey(key("ops"));
    await expect(
      store.createKey(key("ops", "other-hash")),
    ).rejects.toBeInstanceOf(DuplicateKeyNameError);
  });

  it("keeps keys in a file across reopening, without reseeding", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vics-store-"));
    try {
      const path = join(dir, "nested", "vics.sqlite");
      const first = open(path);
      await first.createKey(key("kept"));
      await first.close();
      const second = open(path);
      expect((await second.listKeys()).map((k) => k.name)).toEqual(["kept"]);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("sqlite store: a database seeded before the covering indexes (decision 020)", () => {
  it("gets them on its next open, loses the plain ones, and answers as before", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vics-old-indexes-"));
    try {
      const path = join(dir, "vics.sqlite");
      const before = await open(path).findVehicles(["FN19OUT", "AB12CDE"]);
      await stores.pop()?.close();
      // As the schema was: plain indexes on the children, none but UNIQUE on vehicles.
      const db = new DatabaseSync(path);
      db.exec(`
        DROP INDEX vehicles_by_registration; DROP INDEX policies_by_vehicle;
        DROP INDEX mot_tests_by_vehicle; DROP INDEX fines_by_vehicle;
        CREATE INDEX policies_vehicle ON policies (vehicle_id);
        CREATE INDEX mot_tests_vehicle ON mot_tests (vehicle_id);
        CREATE INDEX fines_vehicle ON fines (vehicle_id);`);
      db.close();

      const after = await open(path).findVehicles(["FN19OUT", "AB12CDE"]);
      expect(after).toEqual(before);
      expect(after.size).toBe(2);
      const check = new DatabaseSync(path, { readOnly: true });
      const indexes = check
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'",
        )
        .all()
        .map((row) => String(row.name));
      check.close();
      expect(indexes.sort()).toEqual([...LOOKUP_INDEXES].sort());
    } finally {
      await Promise.all(stores.splice(0).map((store) => store.close()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
