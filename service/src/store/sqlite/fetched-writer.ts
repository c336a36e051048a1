// Facts fetched from live sources, on SQLite (../fetched-facts.ts): a batch is read, planned
// and written in one write transaction, through statements prepared once per store. The
// vehicle lookups are left as they are (decision 020): freshness is a table of its own.
import type { DatabaseSync } from "node:sqlite";
import { inTransaction } from "@vics/server-kit/sqlite";
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
  type FetchedVersion,
  type HeldVehicle,
  planFetched,
} from "../fetched-plan.ts";
import { dataSpanNoter } from "./schema.ts";
import { FACT_LIST, HISTORY_COLUMN_NAMES } from "./vehicle-queries.ts";

const list = (registrations: readonly string[]) =>
  JSON.stringify(registrations);

/**
 * Held vehicles with a fetch of the kind ?1 at or after ?2: read from the fresh marks by
 * fetched_facts_by_kind, each held vehicle counted once (a vehicle has one mark per kind).
 */
const FRESH_HELD = `(SELECT count(*) FROM fetched_facts f WHERE f.kind = ?1
  AND f.fetched_at >= ?2
  AND EXISTS (SELECT 1 FROM vehicles v WHERE v.registration = f.registration))`;

/**
 * How long a fetch's write waits for another process's write lock (scripts/import holds it for
 * minutes). node:sqlite waits synchronously, so the connection's own long wait would stop the
 * whole service; a fetch is worth less than that, and is asked again at the next check.
 */
export const FETCHED_BUSY_TIMEOUT_MS = 50;

/** SQLITE_BUSY, whatever its extended code, as node:sqlite reports it. */
const isBusy = (error: unknown) =>
  typeof error === "object" &&
  error !== null &&
  "errcode" in error &&
  typeof error.errcode === "number" &&
  (error.errcode & 0xff) === 5;

/**
 * Runs `write` with the connection's busy timeout cut to FETCHED_BUSY_TIMEOUT_MS, restored
 * after; a lock still held is a StoreBusyError (the write's transaction rolled back, nothing
 * stored). Nothing interleaves: node:sqlite is synchronous.
 */
function withShortWait<T>(db: DatabaseSync, write: () => T): T {
  const previous = Number(db.prepare("PRAGMA busy_timeout").get()?.timeout);
  db.exec(`PRAGMA busy_timeout = ${FETCHED_BUSY_TIMEOUT_MS}`);
  try {
    return write();
  } catch (error) {
    throw isBusy(error) ? new StoreBusyError({ cause: error }) : error;
  } finally {
    db.exec(`PRAGMA busy_timeout = ${previous}`);
  }
}

export function sqliteFetchedStore(db: DatabaseSync): FetchedFactStore {
  const statements = {
    held: db.prepare(`SELECT registration, model, tax_due, sorn, updated_at,
      (SELECT json_group_array(json_array(tested_on, expires_on))
       FROM (SELECT tested_on, expires_on FROM mot_tests WHERE vehicle_id = v.id
             ORDER BY tested_on)) AS mots
      FROM vehicles v WHERE registration IN (SELECT value FROM json_each(?))`),
    keepVersion: db.prepare(
      `INSERT INTO vehicle_history (${HISTORY_COLUMN_NAMES}, superseded_at, source)
       SELECT ${FACT_LIST}, ?, ? FROM vehicles v WHERE v.registration = ?`,
    ),
    update: db.prepare(
      "UPDATE vehicles SET model = ?, tax_due = ?, sorn = ?, updated_at = ? WHERE registration = ?",
    ),
    add: db.prepare(`INSERT INTO vehicles (registration, make, model, year, color,
      first_registered, tax_due, sorn, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    writeTest:
      db.prepare(`INSERT INTO mot_tests (vehicle_id, tested_on, expires_on)
      SELECT id, ?, ? FROM vehicles WHERE registration = ?
      ON CONFLICT (vehicle_id, tested_on) DO UPDATE SET expires_on = excluded.expires_on`),
    markFresh:
      db.prepare(`INSERT INTO fetched_facts (registration, kind, source, fetched_at)
      VALUES (?, ?, ?, ?) ON CONFLICT (registration, kind) DO UPDATE
      SET source = excluded.source, fetched_at = excluded.fetched_at
      WHERE excluded.fetched_at >= fetched_facts.fetched_at`),
    freshness: db.prepare(`SELECT registration, kind, source, fetched_at
      FROM fetched_facts WHERE registration IN (SELECT value FROM json_each(?))`),
    countStale: db.prepare(
      `SELECT (SELECT count(*) FROM vehicles) - ${FRESH_HELD} AS n`,
    ),
    success:
      db.prepare(`INSERT INTO source_outcomes (source, last_success_at) VALUES (?, ?)
      ON CONFLICT (source) DO UPDATE SET last_success_at = excluded.last_success_at
      WHERE source_outcomes.last_success_at IS NULL
        OR source_outcomes.last_success_at < excluded.last_success_at`),
    failure:
      db.prepare(`INSERT INTO source_outcomes (source, last_error_at, error_kind,
      error_message) VALUES (?, ?, ?, ?)
      ON CONFLICT (source) DO UPDATE SET last_error_at = excluded.last_error_at,
        error_kind = excluded.error_kind, error_message = excluded.error_message
      WHERE source_outcomes.last_error_at IS NULL
        OR source_outcomes.last_error_at < excluded.last_error_at`),
    states: db.prepare("SELECT * FROM source_outcomes ORDER BY source"),
  };

  const noteDataSpan = dataSpanNoter(db);

  function readHeld(registrations: readonly string[]) {
    const held = new Map<string, HeldVehicle>();
    for (const row of statements.held.all(list(registrations)))
      held.set(String(row.registration), {
        model: String(row.model),
        tax: {
          sorn: row.sorn === 1,
          dueDate: row.tax_due === null ? null : String(row.tax_due),
        },
        motTests: (JSON.parse(String(row.mots)) as [string, string][]).map(
          ([testedOn, expiresOn]) => ({ testedOn, expiresOn }),
        ),
        updatedAt: String(row.updated_at),
      });
    return held;
  }

  const writeTests = (version: FetchedVersion) => {
    for (const test of version.motWrites)
      statements.writeTest.run(
        test.testedOn,
        test.expiresOn,
        version.registration,
      );
  };

  function write(plan: FetchedPlan) {
    for (const version of plan.changed) {
      const { registration, at, tax } = version;
      statements.keepVersion.run(at, version.source, registration);
      statements.update.run(
        version.model,
        tax.dueDate,
        tax.sorn ? 1 : 0,
        at,
        registration,
      );
      writeTests(version);
    }
    for (const vehicle of plan.added) {
      statements.add.run(
        vehicle.registration,
        vehicle.make,
        vehicle.model,
        vehicle.year,
        vehicle.color,
        vehicle.firstRegistered,
        vehicle.tax.dueDate,
        vehicle.tax.sorn ? 1 : 0,
        vehicle.at,
      );
      writeTests(vehicle);
    }
    for (const mark of plan.fresh)
      statements.markFresh.run(
        mark.registration,
        mark.kind,
        mark.source,
        mark.fetchedAt,
      );
    noteDataSpan({ since: plan.firstChange, earliest: plan.earliestTest });
  }

  return {
    recordFetched: async (batch) =>
      withShortWait(db, () =>
        inTransaction(db, () => {
          const registrations = [
            ...new Set(batch.map((facts) => facts.answer.registration)),
          ];
          const plan = planFetched(batch, readHeld(registrations));
          write(plan);
          return {
            added: plan.added.length,
            changed: plan.changed.length,
            unchanged: plan.unchanged,
            skipped: plan.skipped,
          };
        }),
      ),
    freshness: async (registrations) =>
      freshnessMap(
        statements.freshness.all(list(registrations)).map((row): FreshMark => ({
          registration: String(row.registration),
          kind: String(row.kind) as FactKind,
          source: String(row.source) as SourceName,
          fetchedAt: String(row.fetched_at),
        })),
      ),
    countStale: async (kind, olderThan) =>
      Number(statements.countStale.get(kind, instant(olderThan))?.n ?? 0),
    recordSourceOutcome: async (outcome) => {
      const at = instant(outcome.at);
      withShortWait(db, () => {
        if (outcome.ok) statements.success.run(outcome.source, at);
        else
          statements.failure.run(
            outcome.source,
            at,
            outcome.kind,
            outcome.message,
          );
      });
    },
    sourceStates: async () =>
      statements.states.all().map((row) => ({
        source: String(row.source) as SourceName,
        lastSuccessAt: row.last_success_at as string | null,
        lastErrorAt: row.last_error_at as string | null,
        lastError:
          row.error_kind === null
            ? null
            : {
                kind: String(row.error_kind) as SourceErrorKind,
                message: String(row.error_message),
              },
      })),
  };
}
