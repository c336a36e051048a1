import type { StoredTimelineEntry, WatchStore } from "../watch-store.ts";
import { toAlertRow, toRun } from "../watch-rows.ts";
import { savedFleetIds, withFleetTables } from "./fleet-tables.ts";
import type { KyselyStore } from "./spelling.ts";

/**
 * The re-checks' single statements, one text for both engines: runs, settings, a vehicle's
 * alerts and timeline, the unknown vehicles. Each engine's folder keeps the transaction that
 * records re-checks (its statements are fleet-rechecks.ts's), the notifications
 * (notification-sql.ts in each engine's style) and what reads lists.
 */
export type SharedWatchQueries = Pick<
  WatchStore,
  | "startWatchRun"
  | "finishWatchRun"
  | "watchRuns"
  | "lastWatchRun"
  | "watchSetting"
  | "setWatchSetting"
  | "watchSettingOnce"
  | "vehicleAlerts"
  | "vehicleTimeline"
  | "fleetChangesSince"
  | "unknownBefore"
>;

interface TimelineRow {
  at: number | string;
  area: StoredTimelineEntry["area"];
  before: unknown;
  after: unknown;
}

/** What each engine's folder still writes itself. */
export type EngineWatchQueries = Omit<WatchStore, keyof SharedWatchQueries>;

export function sharedWatchQueries({
  db,
  spelling: { readJson },
}: KyselyStore): SharedWatchQueries {
  const toEntry = (row: TimelineRow): StoredTimelineEntry => ({
    at: Number(row.at),
    area: row.area,
    before: readJson(row.before),
    after: readJson(row.after),
  });
  const fleets = withFleetTables(db);
  return {
    async unknownBefore(before) {
      const { n } = await fleets
        .selectFrom("watched_vehicles")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("unknown_since", "<", before)
        .where("registration", "in", (eb) =>
          eb
            .selectFrom("fleet_vehicles")
            .select("registration")
            .where("fleet_id", "in", savedFleetIds(fleets)),
        )
        .executeTakeFirstOrThrow();
      return Number(n);
    },
    async startWatchRun(kind, at) {
      const { id } = await db
        .insertInto("watch_runs")
        .values({ kind, started_at: at })
        .returning("id")
        .executeTakeFirstOrThrow();
      return Number(id);
    },
    async finishWatchRun(id, end) {
      await db
        .updateTable("watch_runs")
        .set({
          finished_at: end.finishedAt,
          outcome: end.outcome,
          vehicles: end.vehicles,
          unknown: end.unknown,
          alerts: end.alerts,
        })
        .where("id", "=", id)
        .execute();
    },
    async watchRuns(limit) {
      const rows = await db
        .selectFrom("watch_runs")
        .selectAll()
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
      return rows.map(toRun);
    },
    async lastWatchRun(kind, outcome) {
      let query = db
        .selectFrom("watch_runs")
        .selectAll()
        .where("kind", "=", kind);
      // No outcome, no filter.
      if (outcome !== undefined) query = query.where("outcome", "=", outcome);
      const row = await query.orderBy("id", "desc").limit(1).executeTakeFirst();
      return row && toRun(row);
    },
    async watchSetting(name) {
      const row = await db
        .selectFrom("watch_settings")
        .select("value")
        .where("name", "=", name)
        .executeTakeFirst();
      return row?.value;
    },
    async setWatchSetting(name, value) {
      await db
        .insertInto("watch_settings")
        .values({ name, value })
        .onConflict((oc) =>
          oc
            .column("name")
            .doUpdateSet((eb) => ({ value: eb.ref("excluded.value") })),
        )
        .execute();
    },
    async watchSettingOnce(name, value) {
      // DO UPDATE with the value it has, so RETURNING gives the row either way.
      const row = await db
        .insertInto("watch_settings")
        .values({ name, value })
        .onConflict((oc) =>
          oc
            .column("name")
            .doUpdateSet((eb) => ({ value: eb.ref("watch_settings.value") })),
        )
        .returning("value")
        .executeTakeFirstOrThrow();
      return row.value;
    },
    async vehicleAlerts(registration) {
      const rows = await db
        .selectFrom("vehicle_alerts")
        .selectAll()
        .where("registration", "=", registration)
        .orderBy("id", "desc")
        .execute();
      return rows.map(toAlertRow);
    },
    async vehicleTimeline(registration) {
      const rows = await db
        .selectFrom("vehicle_timeline")
        .select(["at", "area", "before", "after"])
        .where("registration", "=", registration)
        .orderBy("id", "desc")
        .execute();
      return rows.map(toEntry);
    },
    async fleetChangesSince(fleetId, since) {
      const rows = await fleets
        .selectFrom("fleet_vehicles as f")
        .innerJoin("vehicle_timeline as t", "t.registration", "f.registration")
        .select(["t.registration", "t.at", "t.area", "t.before", "t.after"])
        .where("f.fleet_id", "=", fleetId)
        .where("t.at", ">=", since)
        .orderBy("t.id", "desc")
        .execute();
      return rows.map((row) => ({
        registration: row.registration,
        ...toEntry(row),
      }));
    },
  };
}
