import type { DatabaseSync } from "node:sqlite";
import {
  migrateSqliteSteps,
  type SqliteStep,
} from "@vics/server-kit/sqlite-migrations";
import { META_KEYS } from "../data-info.ts";

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

/**
 * Step 2, the operator's imports (docs/decisions/040-imports.md):
 * - `imports`: one row per import run, whatever its outcome; a file applies once per kind.
 * - `import_rejects`: each refused row's line, column, value and reason, for the data page.
 * - `vehicle_history`: a vehicle's facts as they were before an import changed or removed
 *   them, in the lookup's own columns, with the instant they stopped being current. A vehicle
 *   as known at T is its current row when `updated_at <= T`, else the history row current at T.
 * - The keys a file's rows are matched on: a policy by its number, an MOT test by its date,
 *   a fine by its reference (seeded fines have none; SQLite's UNIQUE lets NULLs repeat).
 */
const IMPORTS_SQL = `
CREATE TABLE imports (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('vehicles', 'policies', 'mot', 'tax', 'fines')),
  mode TEXT NOT NULL CHECK (mode IN ('upsert', 'snapshot')),
  file_name TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  run_by TEXT NOT NULL,
  data_as_of TEXT,
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('applied', 'refused', 'already-imported')),
  message TEXT,
  rows_read INTEGER NOT NULL DEFAULT 0,
  added INTEGER NOT NULL DEFAULT 0,
  changed INTEGER NOT NULL DEFAULT 0,
  unchanged INTEGER NOT NULL DEFAULT 0,
  removed INTEGER NOT NULL DEFAULT 0,
  rejected INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX imports_applied_once ON imports (kind, sha256) WHERE outcome = 'applied';
CREATE TABLE import_rejects (
  import_id INTEGER NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
  line INTEGER NOT NULL,
  column_name TEXT NOT NULL,
  value TEXT NOT NULL,
  reason TEXT NOT NULL
);
CREATE INDEX import_rejects_by_import ON import_rejects (import_id, line);
CREATE TABLE vehicle_history (
  id INTEGER PRIMARY KEY,
  registration TEXT NOT NULL,
  make TEXT NOT NULL,
  model TEXT NOT NULL,
  year INTEGER NOT NULL,
  color TEXT NOT NULL,
  first_registered TEXT NOT NULL,
  tax_due TEXT,
  sorn INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  policies TEXT NOT NULL,
  mots TEXT NOT NULL,
  fines TEXT NOT NULL,
  superseded_at TEXT NOT NULL,
  import_id INTEGER NOT NULL REFERENCES imports (id)
);
CREATE INDEX vehicle_history_by_registration ON vehicle_history (registration, superseded_at);
ALTER TABLE fines ADD COLUMN reference TEXT;
CREATE UNIQUE INDEX fines_by_reference ON fines (vehicle_id, reference);
CREATE UNIQUE INDEX policies_by_number ON policies (vehicle_id, number);
CREATE UNIQUE INDEX mot_tests_by_date ON mot_tests (vehicle_id, tested_on);
`;

/**
 * Step 3: a database seeded before decision 041 learns when its data begins and how fresh
 * each source is (the seeding day), and the first day its records cover. A new database has
 * nothing to learn here: its seeding or first import writes them.
 */
const DATA_INFO_SQL = `
INSERT OR IGNORE INTO meta (key, value)
  SELECT 'data_since', value || 'T00:00:00.000Z' FROM meta WHERE key = 'seeded_on';
INSERT OR IGNORE INTO meta (key, value)
  SELECT 'as_of_' || s.source, m.value || 'T00:00:00.000Z'
  FROM meta m, (SELECT 'insurance' AS source UNION ALL SELECT 'mot'
    UNION ALL SELECT 'tax' UNION ALL SELECT 'fines') s
  WHERE m.key = 'seeded_on';
INSERT OR IGNORE INTO meta (key, value)
  SELECT 'history_from', min(d) FROM (SELECT min(valid_from) AS d FROM policies
    UNION ALL SELECT min(tested_on) FROM mot_tests)
  HAVING min(d) IS NOT NULL;
`;

/**
 * Step 4, facts fetched from live sources (issue 35, fetched-facts.ts):
 * - `vehicle_history` keeps versions a fetch ended too: such a row names its `source` and no
 *   import. SQLite cannot drop a NOT NULL, so the table is built again with its rows and ids.
 * - `fetched_facts`: per vehicle and kind of fact, the source and instant it was last fetched.
 *   Kept apart from the vehicles, so the lookups and their covering indexes stay as they are
 *   (decision 020); a check reads it as a second statement.
 * - `source_outcomes`: each source's last success and last error, for the admin's page.
 */
const FETCHED_SQL = `
CREATE TABLE vehicle_history_new (
  id INTEGER PRIMARY KEY,
  registration TEXT NOT NULL,
  make TEXT NOT NULL,
  model TEXT NOT NULL,
  year INTEGER NOT NULL,
  color TEXT NOT NULL,
  first_registered TEXT NOT NULL,
  tax_due TEXT,
  sorn INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  policies TEXT NOT NULL,
  mots TEXT NOT NULL,
  fines TEXT NOT NULL,
  superseded_at TEXT NOT NULL,
  import_id INTEGER REFERENCES imports (id),
  source TEXT,
  CHECK (import_id IS NOT NULL OR source IS NOT NULL)
);
INSERT INTO vehicle_history_new (id, registration, make, model, year, color,
    first_registered, tax_due, sorn, updated_at, policies, mots, fines, superseded_at,
    import_id)
  SELECT id, registration, make, model, year, color, first_registered, tax_due, sorn,
    updated_at, policies, mots, fines, superseded_at, import_id
  FROM vehicle_history;
DROP TABLE vehicle_history;
ALTER TABLE vehicle_history_new RENAME TO vehicle_history;
CREATE INDEX vehicle_history_by_registration ON vehicle_history (registration, superseded_at);
CREATE TABLE fetched_facts (
  registration TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('tax', 'mot', 'vehicle')),
  source TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (registration, kind)
) WITHOUT ROWID;
CREATE TABLE source_outcomes (
  source TEXT PRIMARY KEY,
  last_success_at TEXT,
  last_error_at TEXT,
  error_kind TEXT,
  error_message TEXT
);
`;

/**
 * Step 5: the fetched facts of a kind by instant, so the vehicles a register has left stale
 * are counted from the fresh marks alone (countStale, asked by the admin's page every 30 s),
 * not by a probe per vehicle; and the marks of vehicles no longer held go.
 */
const FETCHED_BY_KIND_SQL = `
CREATE INDEX fetched_facts_by_kind ON fetched_facts (kind, fetched_at);
DELETE FROM fetched_facts
WHERE registration NOT IN (SELECT registration FROM vehicles);
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
 * The schema's steps, in order, for the shared runner (`PRAGMA user_version` counts those a
 * file has run). Step 1 is idempotent, since files made before it have the tables (and those
 * seeded before decision 020 lack the lookup indexes, which it then builds: seconds on
 * 1,000,000 vehicles, once).
 */
export const STEPS: readonly SqliteStep[] = [
  TABLES_SQL + LOOKUP_INDEXES_SQL,
  IMPORTS_SQL,
  DATA_INFO_SQL,
  FETCHED_SQL,
  FETCHED_BY_KIND_SQL,
];

/**
 * Brings the file's schema up to date, a step a transaction (migrateSqliteSteps); returns how
 * many steps ran. `through`: only the first so many steps, for a test that makes a file as an
 * older release did.
 */
export function migrateSqlite(
  db: DatabaseSync,
  through = STEPS.length,
): number {
  return migrateSqliteSteps(db, STEPS.slice(0, through));
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

/** When data is first held, and the earliest day the history reaches (decision 041). */
interface DataSpan {
  since?: string | null;
  earliest?: string | null;
}

/**
 * What a write tells the answers about the data's span, the same for an import and a fetch:
 * data is held since `since` if it was not before; the history reaches back to `earliest` if
 * that is before what it reached. Prepared once, for a writer that notes it per write.
 */
export function dataSpanNoter(db: DatabaseSync): (span: DataSpan) => void {
  const since = db.prepare(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
  );
  const earliest = db.prepare(
    `INSERT INTO meta (key, value) VALUES (?, ?)
     ON CONFLICT (key) DO UPDATE SET value = min(meta.value, excluded.value)`,
  );
  return (span) => {
    if (span.earliest) earliest.run(META_KEYS.historyFrom, span.earliest);
    if (span.since) since.run(META_KEYS.since, span.since);
  };
}
