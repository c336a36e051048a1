import { createHash } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { seedVehicles } from "../../seed/seed-data.ts";
import { DEFAULT_FLEET_SEED, DEFAULT_FLEET_SIZE } from "../../seed/fleet.ts";
import { REFERENCE_REGISTRATIONS } from "@vics/shared";
import { openDatabase } from "./database.ts";
import { readMeta } from "./schema.ts";
import { ensureSeeded, SYNTHETIC_FLEET } from "./seed-database.ts";

const options = {
  fleetSize: DEFAULT_FLEET_SIZE,
  seed: DEFAULT_FLEET_SEED,
  today: "2026-03-10",
};

function dataHash(db: DatabaseSync): string {
  const hash = createHash("sha256");
  for (const table of ["vehicles", "policies", "mot_tests", "fines"])
    for (const row of db
      .prepare(`SELECT * FROM ${table} ORDER BY id`)
      .iterate())
      hash.update(JSON.stringify(row));
  return hash.digest("hex");
}

const count = (db: DatabaseSync, table: string) =>
  Number(db.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n);

describe("ensureSeeded", () => {
  it(
    "seeds at least 50,000 vehicles plus the reference ones, identically for the same seed and day",
    { timeout: 60_000 },
    () => {
      const first = openDatabase(":memory:");
      const second = openDatabase(":memory:");
      // Seeding speed ("seconds, not minutes") is a figure for a benchmark, not a timed
      // assertion: shared CI machines are too noisy for one.
      expect(ensureSeeded(first, options)).toBe("seeded");
      expect(ensureSeeded(second, options)).toBe("seeded");
      expect(count(first, "vehicles")).toBe(
        DEFAULT_FLEET_SIZE + REFERENCE_REGISTRATIONS.length,
      );
      expect(DEFAULT_FLEET_SIZE).toBeGreaterThanOrEqual(50_000);
      expect(dataHash(first)).toBe(dataHash(second));
      expect(readMeta(first, "fleet")).toBe(SYNTHETIC_FLEET);
      expect(readMeta(first, "seeded_on")).toBe("2026-03-10");
      first.close();
      second.close();
    },
  );

  it("changes with the seeding day, since dates are relative to it", () => {
    const small = { ...options, fleetSize: 300 };
    const first = openDatabase(":memory:");
    const second = openDatabase(":memory:");
    ensureSeeded(first, small);
    ensureSeeded(second, { ...small, today: "2026-03-11" });
    expect(dataHash(first)).not.toBe(dataHash(second));
  });

  it("seeds once: a second call leaves the data alone", () => {
    const db = openDatabase(":memory:");
    expect(ensureSeeded(db, { ...options, fleetSize: 100 })).toBe("seeded");
    const before = dataHash(db);
    expect(
      ensureSeeded(db, { ...options, fleetSize: 100, today: "2030-01-01" }),
    ).toBe("already-seeded");
    expect(dataHash(db)).toBe(before);
  });

  it("leaves no half-seeded database when seeding crashes part-way", () => {
    const db = openDatabase(":memory:");
    function* crashing() {
      let written = 0;
      for (const vehicle of seedVehicles({ ...options, fleetSize: 500 })) {
        if (++written > 200) throw new Error("power cut");
        yield vehicle;
      }
    }
    expect(() => ensureSeeded(db, options, crashing)).toThrow("power cut");
    expect(readMeta(db, "fleet")).toBeUndefined();
    expect(
      db
        .prepare("SELECT name FROM sqlite_master WHERE name = 'vehicles'")
        .get(),
    ).toBeUndefined();
    expect(ensureSeeded(db, { ...options, fleetSize: 100 })).toBe("seeded");
    expect(count(db, "vehicles")).toBe(100 + REFERENCE_REGISTRATIONS.length);
  });
});
