import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, it } from "vitest";
import type { Store } from "../store.ts";
import { CONTRACT_FLEET, storeContract } from "../store.contract.ts";
import { fetchedFactsContract } from "../fetched-facts.contract.ts";
import { fetched } from "../../testing/fetched.ts";
import { openDatabase } from "./database.ts";
import { LOOKUP_INDEXES, migrateSqlite } from "./schema.ts";
import { seedSqliteFleet } from "./seed-database.ts";
import { openSqliteStore } from "./sqlite-store.ts";

const seed = { ...CONTRACT_FLEET, fleetSize: 50 };
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

describe("the SQLite store", () => {
  storeContract(async (fleet) =>
    openSqliteStore({ path: ":memory:", seed: fleet }),
  );
});

describe("facts fetched into the SQLite store", () => {
  fetchedFactsContract(async (fleet) =>
    openSqliteStore({ path: ":memory:", seed: fleet }),
  );
});

describe("sqlite store: a file", () => {
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

describe("sqlite store: migrating and seeding are separate steps", () => {
  it("opens a new file migrated and empty unless asked to seed, and seeds it once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vics-explicit-"));
    try {
      const path = join(dir, "vics.sqlite");
      const empty = openSqliteStore({ path });
      expect(await empty.holdsSyntheticFleet()).toBe(false);
      expect(await empty.findVehicle("AB12CDE")).toBeUndefined();
      await empty.close();

      const db = openDatabase(path);
      try {
        expect(migrateSqlite(db)).toBe(0);
        expect(seedSqliteFleet(db, seed)).toBe("seeded");
        expect(seedSqliteFleet(db, { ...seed, today: "2030-01-01" })).toBe(
          "already-seeded",
        );
        expect(lookupIndexes(db)).toEqual([...LOOKUP_INDEXES].sort());
      } finally {
        db.close();
      }
      const seeded = openSqliteStore({ path });
      expect(await seeded.holdsSyntheticFleet()).toBe(true);
      expect((await seeded.findVehicle("AB12CDE"))?.firstRegistered).toBe(
        "2012-03-14",
      );
      await seeded.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("never seeds a database that holds vehicles of its own", () => {
    const db = openDatabase(":memory:");
    try {
      migrateSqlite(db);
      db.exec(`INSERT INTO vehicles (registration, make, model, year, color, first_registered, updated_at)
        VALUES ('AB12CDE', 'Ford', 'Focus', 2012, 'Blue', '2012-03-14', '2026-03-09T09:30:00.000Z')`);
      expect(seedSqliteFleet(db, seed)).toBe("own-vehicles");
      expect(db.prepare("SELECT count(*) AS n FROM vehicles").get()?.n).toBe(1);
    } finally {
      db.close();
    }
  });
});

function lookupIndexes(db: DatabaseSync): string[] {
  return db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' AND tbl_name IN ('vehicles', 'policies', 'mot_tests', 'fines') AND name NOT IN ('fines_by_reference', 'policies_by_number', 'mot_tests_by_date')",
    )
    .all()
    .map((row) => String(row.name))
    .sort();
}

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
        CREATE INDEX fines_vehicle ON fines (vehicle_id);
        DROP TABLE import_rejects; DROP TABLE vehicle_history; DROP TABLE imports;
        DROP TABLE fetched_facts; DROP TABLE source_outcomes;
        DROP INDEX fines_by_reference; DROP INDEX policies_by_number;
        DROP INDEX mot_tests_by_date; ALTER TABLE fines DROP COLUMN reference;
        PRAGMA user_version = 0;`);
      db.close();

      const after = await open(path).findVehicles(["FN19OUT", "AB12CDE"]);
      expect(after).toEqual(before);
      expect(after.size).toBe(2);
      const check = new DatabaseSync(path, { readOnly: true });
      const indexes = lookupIndexes(check);
      check.close();
      expect(indexes.sort()).toEqual([...LOOKUP_INDEXES].sort());
    } finally {
      await Promise.all(stores.splice(0).map((store) => store.close()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("sqlite store: a file made before facts were fetched (schema step 4)", () => {
  it("keeps its history rows, their ids and imports, then keeps a fetch's version naming its source", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vics-fetched-step-"));
    try {
      const path = join(dir, "vics.sqlite");
      const db = openDatabase(path);
      const history = () =>
        db.prepare("SELECT * FROM vehicle_history ORDER BY id").all();
      try {
        expect(migrateSqlite(db, 3)).toBe(3);
        seedSqliteFleet(db, seed);
        // AB12CDE as an import left it before the seeded version (current since 09:30).
        db.exec(`
          INSERT INTO imports (id, kind, mode, file_name, sha256, bytes, run_by,
            started_at, finished_at, outcome)
          VALUES (7, 'tax', 'upsert', 'tax.csv', 'abc', 10, 'ops',
            '2026-03-01T00:00:00.000Z', '2026-03-01T00:00:01.000Z', 'applied');
          INSERT INTO vehicle_history (id, registration, make, model, year, color,
            first_registered, tax_due, sorn, updated_at, policies, mots, fines,
            superseded_at, import_id)
          VALUES (3, 'AB12CDE', 'Ford', 'Focus', 2012, 'Blue', '2012-03-14', NULL, 1,
            '2026-03-01T00:00:00.000Z', '[]', '[]', '[]', '2026-03-09T09:30:00.000Z', 7);`);
        const before = history();
        expect(migrateSqlite(db, 4)).toBe(1);
        expect(history()).toEqual(
          before.map((row) => ({ ...row, source: null })),
        );
        expect(
          db
            .prepare(
              "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'vehicle_history'",
            )
            .all(),
        ).toEqual([{ name: "vehicle_history_by_registration" }]);
        // A version must say what ended it: an import, or a source.
        expect(() =>
          db.exec(`INSERT INTO vehicle_history (registration, make, model, year, color,
            first_registered, sorn, updated_at, policies, mots, fines, superseded_at)
            SELECT registration, make, model, year, color, first_registered, sorn,
              updated_at, policies, mots, fines, superseded_at FROM vehicle_history`),
        ).toThrow(/CHECK constraint failed/);
        // Step 5: a mark of a vehicle no longer held goes, and the marks are indexed by kind.
        db.exec(`INSERT INTO fetched_facts (registration, kind, source, fetched_at)
          VALUES ('AB12CDE', 'tax', 'dvla-ves', '2026-03-10T00:00:00.000Z'),
            ('GONE1', 'tax', 'dvla-ves', '2026-03-10T00:00:00.000Z')`);
        expect(migrateSqlite(db)).toBe(1);
        expect(
          db.prepare("SELECT registration FROM fetched_facts").all(),
        ).toEqual([{ registration: "AB12CDE" }]);
        expect(
          db
            .prepare(
              "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'fetched_facts'",
            )
            .all(),
        ).toContainEqual({ name: "fetched_facts_by_kind" });
        db.exec("DELETE FROM fetched_facts");
      } finally {
        db.close();
      }

      const store = open(path);
      const then = "2026-03-05T00:00:00.000Z";
      expect((await store.findVehicle("AB12CDE", then))?.tax).toEqual({
        sorn: true,
        dueDate: null,
      });
      const fetchedAt = "2026-03-11T08:00:00.000Z";
      await store.recordFetched([
        fetched(
          {
            registration: "AB12CDE",
            tax: { sorn: false, dueDate: "2027-03-31" },
          },
          fetchedAt,
        ),
      ]);
      expect((await store.findVehicle("AB12CDE", then))?.tax.sorn).toBe(true);
      await store.close();
      const check = new DatabaseSync(path, { readOnly: true });
      const kept = check
        .prepare(
          "SELECT id, import_id, source, superseded_at FROM vehicle_history ORDER BY id",
        )
        .all();
      check.close();
      expect(kept).toEqual([
        {
          id: 3,
          import_id: 7,
          source: null,
          superseded_at: "2026-03-09T09:30:00.000Z",
        },
        {
          id: 4,
          import_id: null,
          source: "dvla-ves",
          superseded_at: fetchedAt,
        },
      ]);
    } finally {
      await Promise.all(stores.splice(0).map((store) => store.close()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
