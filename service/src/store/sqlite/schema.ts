import type { DatabaseSync } from "node:sqlite";

// UNIQUE gives registration and key_hash their indexes.
const SCHEMA_SQL = `
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
CREATE INDEX IF NOT EXISTS policies_vehicle ON policies (vehicle_id);
CREATE TABLE IF NOT EXISTS mot_tests (
  id INTEGER PRIMARY KEY,
  vehicle_id INTEGER NOT NULL REFERENCES vehicles (id) ON DELETE CASCADE,
  tested_on TEXT NOT NULL,
  expires_on TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS mot_tests_vehicle ON mot_tests (vehicle_id);
CREATE TABLE IF NOT EXISTS fines (
  id INTEGER PRIMARY KEY,
  vehicle_id INTEGER NOT NULL REFERENCES vehicles (id) ON DELETE CASCADE,
  issued_on TEXT NOT NULL,
  amount_pence INTEGER NOT NULL CHECK (amount_pence >= 0),
  paid INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS fines_vehicle ON fines (vehicle_id);
CREATE TABLE IF NOT EXISTS api_keys (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  plan TEXT NOT NULL CHECK (plan IN ('trial', 'standard', 'fleet', 'internal')),
  key_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
`;

export function createSchema(db: DatabaseSync): void {
  db.exec(SCHEMA_SQL);
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
