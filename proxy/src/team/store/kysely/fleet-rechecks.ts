// Recording the re-checks of the fleets' vehicles: the statements both engines run inside
// their own transaction.
import type { CompiledQuery } from "kysely";
import type { AlertKind } from "@vics/shared";
import type { Recheck, StoredAlert, TimelineArea } from "../watch-store.ts";
import { needsAttention, toAlertRow, type AlertRow } from "../watch-rows.ts";
import type { Flag } from "./database.ts";
import { savedFleetIds, withFleetTables } from "./fleet-tables.ts";
import type { KyselyStore } from "./spelling.ts";
import { compileWithSlots } from "./precompiled.ts";

const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value);

/**
 * The statements that record re-checks, each compiled once on an engine's Kysely and given each
 * call's values: compiling a Kysely statement costs several times SQLite's write itself, and a
 * sweep records a statement or more for each watched vehicle. The engine's own transaction runs
 * them (recheckWrites), so they are compiled here but not executed.
 */
function recheckStatements({ db, spelling: { flag } }: KyselyStore) {
  const fleets = withFleetTables(db);
  return {
    flag,
    markUnknown: compileWithSlots(2, (registration: string, at: number) =>
      fleets
        .insertInto("watched_vehicles")
        .values({ registration, unknown_since: at })
        .onConflict((oc) =>
          oc.column("registration").doUpdateSet((eb) => ({
            unknown_since: eb.fn.coalesce(
              "watched_vehicles.unknown_since",
              "excluded.unknown_since",
            ),
          })),
        ),
    ),
    saveFacts: compileWithSlots(
      3,
      (registration: string, facts: string, at: number) =>
        fleets
          .insertInto("watched_vehicles")
          .values({ registration, facts, checked_at: at, unknown_since: null })
          .onConflict((oc) =>
            oc.column("registration").doUpdateSet((eb) => ({
              facts: eb.ref("excluded.facts"),
              checked_at: eb.ref("excluded.checked_at"),
              unknown_since: null,
            })),
          ),
    ),
    addTimeline: compileWithSlots(
      5,
      (
        registration: string,
        at: number,
        area: TimelineArea,
        before: string | null,
        after: string | null,
      ) =>
        db
          .insertInto("vehicle_timeline")
          .values({ registration, at, area, before, after }),
    ),
    closeAlert: compileWithSlots(
      4,
      (at: number, registration: string, kind: AlertKind, key: string) =>
        db
          .updateTable("vehicle_alerts")
          .set({ closed_at: at })
          .where("registration", "=", registration)
          .where("kind", "=", kind)
          .where("key", "=", key)
          .where("closed_at", "is", null),
    ),
    openAlert: compileWithSlots(
      9,
      (
        registration: string,
        kind: AlertKind,
        key: string,
        detail: string,
        at: number,
        closedAt: number | null,
        runId: number | null,
        baseline: Flag,
        plannedAt: number | null,
      ) =>
        db
          .insertInto("vehicle_alerts")
          .values({
            registration,
            kind,
            key,
            detail,
            opened_at: at,
            closed_at: closedAt,
            run_id: runId,
            baseline,
            planned_at: plannedAt,
          })
          .onConflict((oc) =>
            oc
              .columns(["registration", "kind", "key"])
              .where("closed_at", "is", null)
              .doNothing(),
          )
          .returningAll(),
    ),
    addBaseline: compileWithSlots(
      4,
      (runId: number, at: number, attention: number, registration: string) =>
        fleets
          .insertInto("fleet_baselines")
          .columns(["fleet_id", "run_id", "at", "vehicles", "attention"])
          .expression((eb) =>
            eb
              .selectFrom("fleet_vehicles")
              .select([
                "fleet_id",
                eb.val(runId).as("run_id"),
                eb.val(at).as("at"),
                eb.lit(1).as("vehicles"),
                eb.val(attention).as("attention"),
              ])
              .where("registration", "=", registration)
              .where("fleet_id", "in", savedFleetIds(fleets)),
          )
          .onConflict((oc) =>
            oc.columns(["run_id", "fleet_id"]).doUpdateSet((eb) => ({
              at: eb.ref("excluded.at"),
              vehicles: eb("fleet_baselines.vehicles", "+", 1),
              attention: eb(
                "fleet_baselines.attention",
                "+",
                eb.ref("excluded.attention"),
              ),
            })),
          ),
    ),
  };
}

type RecheckStatements = ReturnType<typeof recheckStatements>;

/** recheckWrites on an engine's Kysely, its statements compiled once. */
export function recheckRecorder(store: KyselyStore) {
  const statements = recheckStatements(store);
  return (rechecks: readonly Recheck[], runId: number | undefined) =>
    recheckWrites(statements, rechecks, runId);
}

/**
 * The statements that record re-checks, in order, one text for both engines. The transaction
 * is the engine's own (SQLite's inTransaction on its synchronous driver, which Kysely's may not
 * share: decision 063; PostgreSQL's on one client): it runs each statement yielded here and
 * sends back the rows that statement returned.
 */
function* recheckWrites(
  statements: RecheckStatements,
  rechecks: readonly Recheck[],
  runId: number | undefined,
): Generator<CompiledQuery, StoredAlert[], readonly unknown[]> {
  const { flag, markUnknown, saveFacts, addTimeline } = statements;
  const { closeAlert, openAlert, addBaseline } = statements;
  const opened: StoredAlert[] = [];
  for (const recheck of rechecks) {
    const { registration, at } = recheck;
    if ("unknown" in recheck) {
      yield markUnknown(registration, at);
      continue;
    }
    yield saveFacts(registration, JSON.stringify(recheck.facts), at);
    for (const entry of recheck.timeline)
      yield addTimeline(
        registration,
        at,
        entry.area,
        json(entry.before),
        json(entry.after),
      );
    for (const alert of recheck.closed)
      yield closeAlert(at, registration, alert.kind, alert.key);
    const baseline = recheck.baseline === true;
    for (const alert of recheck.opened) {
      const rows = yield openAlert(
        registration,
        alert.kind,
        alert.key,
        JSON.stringify(alert.detail),
        at,
        alert.resolved ? at : null,
        runId ?? null,
        flag(baseline),
        // A baseline alert is planned already: it is delivered to nobody (decision 054).
        baseline ? at : null,
      );
      if (rows[0]) opened.push(toAlertRow(rows[0] as AlertRow));
    }
    if (baseline && runId !== undefined)
      yield addBaseline(runId, at, needsAttention(recheck), registration);
  }
  return opened;
}
