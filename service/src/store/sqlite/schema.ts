import type { DatabaseSync } from "node:sqlite";

// UNIQUE gives registration and key_hash their indexes.
const TABLES_SQL = `
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS vehicles (
  id INTEGER PRIMARY KEY,
  registration TEXT NOT NULL UNIQUE,
  make TEXT NOT NULL,
  model TEXT NOT NULL,
  year INTEGER NOT NULL,
  color TEXT NOT NULL,
  first_registered TEXT NOT NULL,
  tax_due TEXT,
  sorn INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS policies (
  id INTEGER PRIMARY KEY,
  vehicle_id INTEGER NOT NULL REFERENCES vehicles (id) ON DELETE CASCADE,
  number TEXT NOT NULL,
  insurer TEXT NOT NULL,
  type TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS mot_tests (
  id INTEGER PRIMARY KEY,
  vehicle_id INTEGER NOT NULL REFERENCES vehicles (id) ON DELETE CASCADE,
  tested_on TEXT NOT NULL,
  expires_on TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS fines (
  id INTEGER PRIMARY KEY,
  vehicle_id INTEGER NOT NULL REFERENCES vehicles (id) ON DELETE CASCADE,
  issued_on TEXT NOT NULL,
  amount_pence INTEGER NOT NULL CHECK (amount_pence >= 0),
  paid INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  plan TEXT NOT NULL CHECK (plan IN ('trial', 'standard', 'fleet', 'internal')),
  key_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
`;

/**
 * The vehicle lookups read only from these covering indexes, in the order they answer
 * (vehicle-queries.ts): a vehicle by registration, and its policies, MOT tests and fines by
 * vehicle in date order. On 1,000,000 vehicles a 1,000-registration lookup takes two thirds
 * of the time it took through the plain indexes they replace (decision 020).
 */
export const LOOKUP_INDEXES = [
  "vehicles_by_registration",
  "policies_by_vehicle",
  "mot_tests_by_vehicle",
  "fines_by_vehicle",
] as const;

const LOOKUP_INDEXES_SQL = `
CREATE INDEX IF NOT EXISTS vehicles_by_registration ON vehicles (
  registration, id, make, model, year, color, first_registered, tax_due, sorn, updated_at
);
DROP INDEX IF EXISTS policies_vehicle;
CREATE INDEX IF NOT EXISTS policies_by_vehicle ON policies (
  vehicle_id, valid_from, id, number, insurer, type, valid_to
);
DROP INDEX IF EXISTS mot_tests_vehicle;
CREATE INDEX IF NOT EXISTS mot_tests_by_vehicle ON mot_tests (
  vehicle_id, tested_on, id, expires_on
);
DROP INDEX IF EXISTS fines_vehicle;
CREATE INDEX IF NOT EXISTS fines_by_vehicle ON fines (
  vehicle_id, issued_on, id, amount_pence, paid
);
`;

/** The tables, empty; the lookup indexes come after the seeding fills them (faster). */
export function createTables(db: DatabaseSync): void {
  db.exec(TABLES_SQL);
}

/** The caller owns the transaction. */
export function createLookupIndexes(db: DatabaseSync): void {
  db.exec(LOOKUP_INDEXES_SQL);
}

/** Whether a database seeded before the lookup indexes existed still lacks one. */
export function lacksLookupIndexes(db: DatabaseSync): boolean {
  const present = new Set(
    db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index'")
      .all()
      .map((row) => String(row.name)),
  );
  return LOOKUP_INDEXES.some((name) => !present.has(name));
}

export function readMeta(db: DatabaseSync, key: string): string | undefined {
  const exists = db
    .prepare(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
    )
    .get();
  if (!exists) return undefined;
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(key);
  return row ? String(row.value) : undefined;
}

export function writeMeta(db: DatabaseSync, key: string, value: string): void {
  db.prepare(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  ).run(key, value);
}
