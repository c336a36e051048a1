import { migratePg, type PgPool } from "@vics/shared/server/postgres";

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
];

/** Runs the pending steps once, however many replicas start together; returns how many ran. */
export function migratePostgres(pool: PgPool): Promise<number> {
  return migratePg(pool, { name: MIGRATIONS_NAME, steps: MIGRATIONS });
}
