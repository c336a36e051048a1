// Facts fetched from live sources, on PostgreSQL (../fetched-facts.ts): a batch is read (its
// vehicles locked), planned, and written set-based, each kind of write one statement over
// unnest()ed arrays, in one transaction. Batches from every replica queue on an advisory
// lock, so two never add the same vehicle. The lookups stay as they are (decision 037).
import {
  inPgTransaction,
  type PgClient,
  type PgPool,
} from "@vics/server-kit/postgres";
import type { MotTest, TaxRecord } from "../../domain/compliance.ts";
import type {
  FactKind,
  SourceErrorKind,
  SourceName,
} from "../../sources/source.ts";
import {
  type FetchedFactStore,
  type FreshMark,
  freshnessMap,
  instant,
  StoreBusyError,
} from "../fetched-facts.ts";
import {
  type FetchedPlan,
  type HeldVehicle,
  planFetched,
} from "../fetched-plan.ts";
import { noteDataSpan } from "./meta.ts";
import { versionColumns } from "./vehicle-queries.ts";

/** Names the advisory lock fetched batches queue on. */
export const FETCHED_LOCK = "vics_service_fetched";

/**
 * How long a batch waits for any one lock (the advisory lock, a vehicle row an import holds)
 * before it gives up with StoreBusyError: the answer is asked again at the next check.
 */
export const FETCHED_LOCK_TIMEOUT_MS = 5_000;

/** PostgreSQL's lock_not_available, as lock_timeout ends a wait. */
const LOCK_NOT_AVAILABLE = "55P03";
const isLockTimeout = (error: unknown) =>
  typeof error === "object" &&
  error !== null &&
  (error as { code?: unknown }).code === LOCK_NOT_AVAILABLE;

const utc = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A version's MOT tests, sent as JSON text, as the vehicle's array in date order. */
const MOT_ARRAY = `ARRAY(SELECT ROW(t.tested_on, t.expires_on)::mot_test
  FROM json_to_recordset(c.mots) AS t (tested_on date, expires_on date)
  ORDER BY t.tested_on)`;
const motJson = (tests: readonly MotTest[]) =>
  JSON.stringify(
    tests.map((test) => ({
      tested_on: test.testedOn,
      expires_on: test.expiresOn,
    })),
  );

const HELD = {
  name: "vics_fetched_held",
  text: `SELECT registration, model, to_char(tax_due, 'YYYY-MM-DD') AS tax_due, sorn,
    ${utc("updated_at")} AS updated_at, to_json(mot_tests) AS mots
  FROM vehicles WHERE registration = ANY ($1::text[]) FOR UPDATE`,
};
const KEEP_VERSIONS = {
  name: "vics_fetched_keep_versions",
  text: `INSERT INTO vehicle_history (${versionColumns()}, superseded_at, source)
  SELECT ${versionColumns("v.")}, c.at, c.source
  FROM unnest($1::text[], $2::timestamptz[], $3::text[]) AS c (registration, at, source)
  JOIN vehicles v ON v.registration = c.registration`,
};
const UPDATE = {
  name: "vics_fetched_update",
  text: `UPDATE vehicles v SET model = c.model, tax_due = c.tax_due, sorn = c.sorn,
    updated_at = c.at, mot_tests = ${MOT_ARRAY}
  FROM unnest($1::text[], $2::text[], $3::date[], $4::boolean[], $5::timestamptz[],
    $6::json[]) AS c (registration, model, tax_due, sorn, at, mots)
  WHERE v.registration = c.registration`,
};
const ADD = {
  name: "vics_fetched_add",
  text: `INSERT INTO vehicles (registration, make, model, year, color, first_registered,
    tax_due, sorn, updated_at, mot_tests)
  SELECT c.registration, c.make, c.model, c.year, c.color, c.first_registered, c.tax_due,
    c.sorn, c.at, ${MOT_ARRAY}
  FROM unnest($1::text[], $2::text[], $3::text[], $4::smallint[], $5::text[], $6::date[],
    $7::date[], $8::boolean[], $9::timestamptz[], $10::json[])
    AS c (registration, make, model, year, color, first_registered, tax_due, sorn, at, mots)
  ORDER BY c.registration
  ON CONFLICT (registration) DO NOTHING`,
};
const MARK_FRESH = {
  name: "vics_fetched_mark_fresh",
  text: `INSERT INTO fetched_facts (registration, kind, source, fetched_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[])
  ON CONFLICT (registration, kind) DO UPDATE
  SET source = excluded.source, fetched_at = excluded.fetched_at
  WHERE excluded.fetched_at >= fetched_facts.fetched_at`,
};
const FRESHNESS = {
  name: "vics_fetched_freshness",
  text: `SELECT registration, kind, source, ${utc("fetched_at")} AS fetched_at
  FROM fetched_facts WHERE registration = ANY ($1::text[])`,
};
const taxCells = (tax: TaxRecord) => [tax.dueDate, tax.sorn];

async function readHeld(client: PgClient, registrations: readonly string[]) {
  const { rows } = await client.query<{
    registration: string;
    model: string;
    tax_due: string | null;
    sorn: boolean;
    updated_at: string;
    mots: { tested_on: string; expires_on: string }[];
  }>({ ...HELD, values: [registrations] });
  return new Map<string, HeldVehicle>(
    rows.map((row) => [
      row.registration,
      {
        model: row.model,
        tax: { sorn: row.sorn, dueDate: row.tax_due },
        motTests: row.mots.map((test) => ({
          testedOn: test.tested_on,
          expiresOn: test.expires_on,
        })),
        updatedAt: row.updated_at,
      },
    ]),
  );
}

/** Column arrays for unnest: one array per cell of `cells`. */
function columns<T>(items: readonly T[], cells: (item: T) => unknown[]) {
  const rows = items.map(cells);
  return (rows[0] ?? []).map((_, index) => rows.map((row) => row[index]));
}

/** Writes the plan; answers how many vehicles it added (one another replica added is not). */
async function write(client: PgClient, plan: FetchedPlan): Promise<number> {
  if (plan.changed.length > 0) {
    await client.query({
      ...KEEP_VERSIONS,
      values: columns(plan.changed, (v) => [v.registration, v.at, v.source]),
    });
    await client.query({
      ...UPDATE,
      values: columns(plan.changed, (v) => [
        v.registration,
        v.model,
        ...taxCells(v.tax),
        v.at,
        motJson(v.motTests),
      ]),
    });
  }
  let added = 0;
  if (plan.added.length > 0)
    added =
      (
        await client.query({
          ...ADD,
          values: columns(plan.added, (v) => [
            v.registration,
            v.make,
            v.model,
            v.year,
            v.color,
            v.firstRegistered,
            ...taxCells(v.tax),
            v.at,
            motJson(v.motTests),
          ]),
        })
      ).rowCount ?? 0;
  if (plan.fresh.length > 0)
    await client.query({
      ...MARK_FRESH,
      values: columns(plan.fresh, (mark) => [
        mark.registration,
        mark.kind,
        mark.source,
        mark.fetchedAt,
      ]),
    });
  await noteDataSpan(client, {
    since: plan.firstChange,
    earliest: plan.earliestTest,
  });
  return added;
}

export interface PostgresFetchedOptions {
  /** FETCHED_LOCK_TIMEOUT_MS unless told (a test's shorter wait). */
  lockTimeoutMs?: number;
}

export function postgresFetchedStore(
  pool: PgPool,
  { lockTimeoutMs = FETCHED_LOCK_TIMEOUT_MS }: PostgresFetchedOptions = {},
): FetchedFactStore {
  return {
    recordFetched: (batch) =>
      inPgTransaction(pool, async (client) => {
        // SET cannot take a parameter; the value is a whole number of ours.
        await client.query(
          `SET LOCAL lock_timeout = ${Math.max(1, Math.trunc(lockTimeoutMs))}`,
        );
        await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
          FETCHED_LOCK,
        ]);
        const registrations = [
          ...new Set(batch.map((facts) => facts.answer.registration)),
        ];
        const plan = planFetched(batch, await readHeld(client, registrations));
        const added = await write(client, plan);
        return {
          added,
          changed: plan.changed.length,
          unchanged: plan.unchanged,
          skipped: plan.skipped,
        };
      }).catch((error: unknown) => {
        // Rolled back: nothing of the batch was stored.
        throw isLockTimeout(error)
          ? new StoreBusyError({ cause: error })
          : error;
      }),
    async freshness(registrations) {
      const { rows } = await pool.query<{
        registration: string;
        kind: FactKind;
        source: SourceName;
        fetched_at: string;
      }>({ ...FRESHNESS, values: [registrations] });
      return freshnessMap(
        rows.map((row): FreshMark => ({
          registration: row.registration,
          kind: row.kind,
          source: row.source,
          fetchedAt: row.fetched_at,
        })),
      );
    },
    async countStale(kind, olderThan) {
      // The fresh marks by fetched_facts_by_kind, each held vehicle's once (one mark per
      // kind), taken from the vehicles: not a probe per vehicle.
      const { rows } = await pool.query<{ n: number }>(
        `SELECT ((SELECT count(*) FROM vehicles) - (SELECT count(*) FROM fetched_facts f
           WHERE f.kind = $1 AND f.fetched_at >= $2::timestamptz
             AND EXISTS (SELECT 1 FROM vehicles v WHERE v.registration = f.registration)))::int AS n`,
        [kind, instant(olderThan)],
      );
      return rows[0]?.n ?? 0;
    },
    async recordSourceOutcome(outcome) {
      const at = instant(outcome.at);
      if (outcome.ok)
        await pool.query(
          `INSERT INTO source_outcomes (source, last_success_at) VALUES ($1, $2)
           ON CONFLICT (source) DO UPDATE SET last_success_at = excluded.last_success_at
           WHERE source_outcomes.last_success_at IS NULL
             OR source_outcomes.last_success_at < excluded.last_success_at`,
          [outcome.source, at],
        );
      else
        await pool.query(
          `INSERT INTO source_outcomes (source, last_error_at, error_kind, error_message)
           VALUES ($1, $2, $3, $4)
           ON CONFLICT (source) DO UPDATE SET last_error_at = excluded.last_error_at,
             error_kind = excluded.error_kind, error_message = excluded.error_message
           WHERE source_outcomes.last_error_at IS NULL
             OR source_outcomes.last_error_at < excluded.last_error_at`,
          [outcome.source, at, outcome.kind, outcome.message],
        );
    },
    async sourceStates() {
      const { rows } = await pool.query<{
        source: SourceName;
        last_success_at: string | null;
        last_error_at: string | null;
        error_kind: SourceErrorKind | null;
        error_message: string | null;
      }>(
        `SELECT source, ${utc("last_success_at")} AS last_success_at,
           ${utc("last_error_at")} AS last_error_at, error_kind, error_message
         FROM source_outcomes ORDER BY source COLLATE "C"`,
      );
      return rows.map((row) => ({
        source: row.source,
        lastSuccessAt: row.last_success_at,
        lastErrorAt: row.last_error_at,
        lastError:
          row.error_kind === null
            ? null
            : { kind: row.error_kind, message: row.error_message ?? "" },
      }));
    },
  };
}
