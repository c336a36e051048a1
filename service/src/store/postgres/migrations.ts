import { migratePg, type PgPool } from "@vics/server-kit/postgres";

/** Names the advisory lock and the `vics_service_migrations` table. */
export const MIGRATIONS_NAME = "vics_service";

/**
 * The schema, one step each, in order. A released step never changes: a change is a new step.
 *
 * A vehicle is one row, its history in typed arrays of composite values (a policy, an MOT
 * test, a fine), each kept in date order by its writer: a lookup is one probe of
 * `vehicles_by_registration` and one heap row, where child tables cost three more probes per
 * vehicle and made the 1,000-registration lookup 2-3 times slower (decision 037). Dates are
 * `date` and instants `timestamptz`; a fine's amount is a domain that refuses a negative one.
 * The registration is compared bytewise (COLLATE "C"), whatever the database's locale: plates
 * are ASCII, and the lookups compare a thousand of them.
 */
export const MIGRATIONS: readonly string[] = [
  `
CREATE TABLE meta (
  key text PRIMARY KEY,
  value text NOT NULL
);
CREATE DOMAIN pence AS integer CHECK (VALUE >= 0);
CREATE TYPE vehicle_policy AS (
  number text,
  insurer text,
  type text,
  valid_from date,
  valid_to date
);
CREATE TYPE mot_test AS (
  tested_on date,
  expires_on date
);
CREATE TYPE fine AS (
  issued_on date,
  amount_pence pence,
  paid boolean
);
CREATE TABLE vehicles (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  registration text COLLATE "C" NOT NULL,
  make text NOT NULL,
  model text NOT NULL,
  year smallint NOT NULL,
  color text NOT NULL,
  first_registered date NOT NULL,
  tax_due date,
  sorn boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL,
  policies vehicle_policy[] NOT NULL DEFAULT '{}',
  mot_tests mot_test[] NOT NULL DEFAULT '{}',
  fines fine[] NOT NULL DEFAULT '{}'
);
CREATE UNIQUE INDEX vehicles_by_registration ON vehicles (registration);
CREATE TABLE api_keys (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL UNIQUE,
  plan text NOT NULL CHECK (plan IN ('trial', 'standard', 'fleet', 'internal')),
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);
`,
  // The operator's imports and the versions they keep (decisions 040 and 041): one row per
  // import, its refused rows for the data page, and each vehicle's row as it was before an
  // import changed or removed it, with the instant it stopped being current. A fine gains
  // the source's reference, which an import matches it on. A database seeded before this
  // step learns when its data begins, how fresh each source is, and its first day covered.
  `
ALTER TYPE fine ADD ATTRIBUTE reference text;
CREATE TABLE imports (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('vehicles', 'policies', 'mot', 'tax', 'fines')),
  mode text NOT NULL CHECK (mode IN ('upsert', 'snapshot')),
  file_name text NOT NULL,
  sha256 text NOT NULL,
  bytes bigint NOT NULL,
  run_by text NOT NULL,
  data_as_of timestamptz,
  started_at timestamptz NOT NULL,
  finished_at timestamptz NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('applied', 'refused', 'already-imported')),
  message text,
  rows_read bigint NOT NULL DEFAULT 0,
  added bigint NOT NULL DEFAULT 0,
  changed bigint NOT NULL DEFAULT 0,
  unchanged bigint NOT NULL DEFAULT 0,
  removed bigint NOT NULL DEFAULT 0,
  rejected bigint NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX imports_applied_once ON imports (kind, sha256) WHERE outcome = 'applied';
CREATE TABLE import_rejects (
  import_id bigint NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
  line bigint NOT NULL,
  column_name text NOT NULL,
  value text NOT NULL,
  reason text NOT NULL
);
CREATE INDEX import_rejects_by_import ON import_rejects (import_id, line);
CREATE TABLE vehicle_history (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  registration text COLLATE "C" NOT NULL,
  make text NOT NULL,
  model text NOT NULL,
  year smallint NOT NULL,
  color text NOT NULL,
  first_registered date NOT NULL,
  tax_due date,
  sorn boolean NOT NULL,
  updated_at timestamptz NOT NULL,
  policies vehicle_policy[] NOT NULL,
  mot_tests mot_test[] NOT NULL,
  fines fine[] NOT NULL,
  superseded_at timestamptz NOT NULL,
  import_id bigint NOT NULL REFERENCES imports (id)
);
CREATE INDEX vehicle_history_by_registration ON vehicle_history (registration, superseded_at);
INSERT INTO meta (key, value)
  SELECT 'data_since', value || 'T00:00:00.000Z' FROM meta WHERE key = 'seeded_on'
  ON CONFLICT DO NOTHING;
INSERT INTO meta (key, value)
  SELECT 'as_of_' || s.source, m.value || 'T00:00:00.000Z'
  FROM meta m, (VALUES ('insurance'), ('mot'), ('tax'), ('fines')) s (source)
  WHERE m.key = 'seeded_on'
  ON CONFLICT DO NOTHING;
INSERT INTO meta (key, value)
  SELECT 'history_from', min(d)::text FROM (
    SELECT min(p.valid_from) AS d FROM vehicles, unnest(policies) p
    UNION ALL SELECT min(m.tested_on) FROM vehicles, unnest(mot_tests) m) days
  HAVING min(d) IS NOT NULL
  ON CONFLICT DO NOTHING;
`,
  // Facts fetched from live sources (issue 35, fetched-facts.ts): a version a fetch ended
  // names its source and no import; per vehicle and kind of fact, the source and instant it
  // was last fetched, apart from the vehicles so the lookup stays one probe and one row
  // (decision 037); each source's last success and last error, for the admin's page.
  `
ALTER TABLE vehicle_history
  ALTER COLUMN import_id DROP NOT NULL,
  ADD COLUMN source text,
  ADD CONSTRAINT vehicle_history_import_or_source
    CHECK (import_id IS NOT NULL OR source IS NOT NULL);
CREATE TABLE fetched_facts (
  registration text COLLATE "C" NOT NULL,
  kind text NOT NULL CHECK (kind IN ('tax', 'mot', 'vehicle')),
  source text NOT NULL,
  fetched_at timestamptz NOT NULL,
  PRIMARY KEY (registration, kind)
);
CREATE TABLE source_outcomes (
  source text PRIMARY KEY,
  last_success_at timestamptz,
  last_error_at timestamptz,
  error_kind text,
  error_message text
);
`,
  // The fetched facts of a kind by instant, so the vehicles a register has left stale are
  // counted from the fresh marks alone (countStale, asked by the admin's page every 30 s),
  // not by a probe per vehicle; and the marks of vehicles no longer held go.
  `
CREATE INDEX fetched_facts_by_kind ON fetched_facts (kind, fetched_at) INCLUDE (registration);
DELETE FROM fetched_facts f
WHERE NOT EXISTS (SELECT 1 FROM vehicles v WHERE v.registration = f.registration);
`,
];

/** Runs the pending steps once, however many replicas start together; returns how many ran. */
export function migratePostgres(pool: PgPool): Promise<number> {
  return migratePg(pool, { name: MIGRATIONS_NAME, steps: MIGRATIONS });
}
