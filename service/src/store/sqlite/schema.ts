import type { DatabaseSync } from "node:sqlite";
import { inTransaction } from "@vics/shared/server/sqlite";

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

/** The tables, empty. */
export function createTables(db: DatabaseSync): void {
  db.exec(TABLES_SQL);
}

/** The caller owns the transaction. */
export function createLookupIndexes(db: DatabaseSync): void {
  db.exec(LOOKUP_INDEXES_SQL);
}

/** The seeding builds them again after its inserts: an index built by sorting is faster. */
export function dropLookupIndexes(db: DatabaseSync): void {
  for (const name of LOOKUP_INDEXES) db.exec(`DROP INDEX IF EXISTS ${name}`);
}

/**
 * The schema's steps, in order; `PRAGMA user_version` counts those a file has run. Step 1 is
 * idempotent, since files made before it have the tables (and those seeded before decision
 * 020 lack the lookup indexes, which it then builds: seconds on 1,000,000 vehicles, once).
 */
const STEPS: readonly ((db: DatabaseSync) => void)[] = [
  (db) => {
    createTables(db);
    createLookupIndexes(db);
  },
];

const schemaVersion = (db: DatabaseSync) =>
  Number(db.prepare("PRAGMA user_version").get()?.user_version ?? 0);

/** Brings the file's schema up to date in one transaction; returns how many steps ran. */
export function migrateSqlite(db: DatabaseSync): number {
  if (schemaVersion(db) >= STEPS.length) return 0;
  return inTransaction(db, () => {
    // Another process (the keys CLI, a second service) may have migrated it meanwhile.
    const done = schemaVersion(db);
    if (done >= STEPS.length) return 0;
    for (const step of STEPS.slice(done)) step(db);
    db.exec(`PRAGMA user_version = ${STEPS.length}`);
    return STEPS.length - done;
  });
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
