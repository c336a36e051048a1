import type { PgClient, PgPool } from "@vics/shared/server/postgres";
import { inPgTransaction } from "@vics/shared/server/postgres";
import { reachingPostgres } from "@vics/shared/server/postgres-errors";
import type { VehicleFacts } from "@vics/shared";
import type {
  NotificationRow,
  Recheck,
  StoredAlert,
  StoredTimelineEntry,
  TimelineArea,
  WatchStore,
} from "../watch-store.ts";
import {
  needsAttention,
  toRun,
  type RunRow,
  toAlertRow,
  type AlertRow,
} from "../watch-rows.ts";
import type { Sql } from "./database.ts";

interface TimelineRow {
  at: string;
  area: TimelineArea;
  before: unknown;
  after: unknown;
}

const toEntry = (row: TimelineRow): StoredTimelineEntry => ({
  at: Number(row.at),
  area: row.area,
  before: row.before,
  after: row.after,
});

const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value);

/** The alerts that are notifications: of a fleet's vehicles, not a baseline's. */
const NOTIFIED = `NOT a.baseline AND a.registration IN (SELECT registration FROM fleet_vehicles)`;

/**
 * A row per (sweep, fleet, kind), an alert older than the grouping a row of its own, and the
 * first-check summaries: $1 the user, $2 a fleet or null, $3 a kind or null.
 */
const ROWS = `
  SELECT 'alerts' AS type, coalesce(a.run_id, -a.id) AS grp, v.fleet_id, f.name AS fleet_name,
    a.kind, max(a.opened_at) AS at, max(a.id) AS top, count(*) AS count,
    count(*) FILTER (WHERE NOT EXISTS
      (SELECT 1 FROM alert_reads r WHERE r.user_id = $1 AND r.alert_id = a.id)) AS unread,
    0 AS attention
  FROM vehicle_alerts a
  JOIN fleet_vehicles v ON v.registration = a.registration
  JOIN fleets f ON f.id = v.fleet_id
  WHERE NOT a.baseline AND ($2::text IS NULL OR v.fleet_id = $2)
    AND ($3::text IS NULL OR a.kind = $3) AND coalesce($3, '') <> 'first-check'
  GROUP BY grp, v.fleet_id, f.name, a.kind
  UNION ALL
  SELECT 'first-check', b.id, b.fleet_id, f.name, 'first-check', b.at, b.run_id, b.vehicles,
    CASE WHEN EXISTS (SELECT 1 FROM fleet_baseline_reads r
                       WHERE r.user_id = $1 AND r.baseline_id = b.id) THEN 0 ELSE 1 END,
    b.attention
  FROM fleet_baselines b JOIN fleets f ON f.id = b.fleet_id
  WHERE ($2::text IS NULL OR b.fleet_id = $2) AND ($3::text IS NULL OR $3 = 'first-check')`;

interface PageRow {
  type: "alerts" | "first-check";
  grp: string;
  fleet_id: string;
  fleet_name: string;
  kind: string;
  at: string;
  top: string;
  count: string;
  unread: string;
  attention: string | number;
}

async function record(
  client: PgClient,
  recheck: Recheck,
  opened: StoredAlert[],
  runId: number | undefined,
): Promise<void> {
  const { registration, at } = recheck;
  if ("unknown" in recheck) {
    await client.query(
      `INSERT INTO watched_vehicles (registration, unknown_since) VALUES ($1, $2)
       ON CONFLICT (registration) DO UPDATE SET
         unknown_since = coalesce(watched_vehicles.unknown_since, excluded.unknown_since)`,
      [registration, at],
    );
    return;
  }
  await client.query(
    `INSERT INTO watched_vehicles (registration, facts, checked_at, unknown_since)
     VALUES ($1, $2, $3, NULL)
     ON CONFLICT (registration) DO UPDATE SET
       facts = excluded.facts, checked_at = excluded.checked_at, unknown_since = NULL`,
    [registration, JSON.stringify(recheck.facts), at],
  );
  for (const entry of recheck.timeline)
    await client.query(
      `INSERT INTO vehicle_timeline (registration, at, area, before, after)
       VALUES ($1, $2, $3, $4, $5)`,
      [registration, at, entry.area, json(entry.before), json(entry.after)],
    );
  for (const alert of recheck.closed)
    await client.query(
      `UPDATE vehicle_alerts SET closed_at = $1
       WHERE registration = $2 AND kind = $3 AND key = $4 AND closed_at IS NULL`,
      [at, registration, alert.kind, alert.key],
    );
  const baseline = recheck.baseline === true;
  for (const alert of recheck.opened) {
    // A baseline alert is planned already: it is delivered to nobody (decision 054).
    const { rows } = await client.query<AlertRow>(
      `INSERT INTO vehicle_alerts
         (registration, kind, key, detail, opened_at, closed_at, run_id, baseline, planned_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $8 THEN $5::bigint END)
       ON CONFLICT (registration, kind, key) WHERE closed_at IS NULL DO NOTHING
       RETURNING *`,
      [
        registration,
        alert.kind,
        alert.key,
        JSON.stringify(alert.detail),
        at,
        alert.resolved ? at : null,
        runId ?? null,
        baseline,
      ],
    );
    if (rows[0]) opened.push(toAlertRow(rows[0]));
  }
  if (baseline && runId !== undefined)
    await client.query(
      `INSERT INTO fleet_baselines (fleet_id, run_id, at, vehicles, attention)
       SELECT fleet_id, $1, $2, 1, $3 FROM fleet_vehicles WHERE registration = $4
       ON CONFLICT (run_id, fleet_id) DO UPDATE SET at = excluded.at,
         vehicles = fleet_baselines.vehicles + 1,
         attention = fleet_baselines.attention + excluded.attention`,
      [runId, at, needsAttention(recheck), registration],
    );
}

export function watchQueries(pool: PgPool, sql: Sql): WatchStore {
  return {
    async unknownBefore(before) {
      const { rows } = await sql<{ n: string }>(
        `SELECT count(*) AS n FROM watched_vehicles
         WHERE unknown_since < $1 AND registration IN (SELECT registration FROM fleet_vehicles)`,
        [before],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async notificationPage(query) {
      const params = [query.userId, query.fleetId ?? null, query.kind ?? null];
      const [{ rows }, counted] = await Promise.all([
        sql<PageRow>(
          `SELECT * FROM (${ROWS}) t ORDER BY at DESC, top DESC, fleet_name, kind
           LIMIT $4 OFFSET $5`,
          [...params, query.pageSize, query.page * query.pageSize],
        ),
        sql<{ n: string }>(`SELECT count(*) AS n FROM (${ROWS}) t`, params),
      ]);
      const answered = await Promise.all(
        rows.map(async (row): Promise<NotificationRow> => {
          if (row.type === "first-check")
            return {
              type: "first-check",
              baseline: {
                id: Number(row.grp),
                fleetId: row.fleet_id,
                fleetName: row.fleet_name,
                runId: Number(row.top),
                at: Number(row.at),
                vehicles: Number(row.count),
                attention: Number(row.attention),
              },
              read: Number(row.unread) === 0,
            };
          const { rows: alerts } = await sql<AlertRow & { read: boolean }>(
            `SELECT a.*, EXISTS (SELECT 1 FROM alert_reads r
                                  WHERE r.user_id = $1 AND r.alert_id = a.id) AS read
             FROM vehicle_alerts a
             WHERE (a.run_id = $2 OR (a.run_id IS NULL AND a.id = -$6::bigint))
               AND a.kind = $3 AND NOT a.baseline
               AND a.registration IN (SELECT registration FROM fleet_vehicles WHERE fleet_id = $4)
             ORDER BY a.id DESC LIMIT $5`,
            [
              query.userId,
              Number(row.grp) < 0 ? null : row.grp,
              row.kind,
              row.fleet_id,
              query.groupAlerts,
              row.grp,
            ],
          );
          const grp = Number(row.grp);
          return {
            type: "alerts",
            runId: grp < 0 ? null : grp,
            fleetId: row.fleet_id,
            fleetName: row.fleet_name,
            kind: row.kind as StoredAlert["kind"],
            at: Number(row.at),
            count: Number(row.count),
            unread: Number(row.unread),
            alerts: alerts.map((alert) => ({
              alert: toAlertRow(alert),
              read: alert.read,
            })),
          };
        }),
      );
      return { rows: answered, total: Number(counted.rows[0]?.n ?? 0) };
    },
    async unreadCount(userId) {
      const { rows } = await sql<{ n: string }>(
        `SELECT (SELECT count(*) FROM vehicle_alerts a WHERE ${NOTIFIED}
           AND NOT EXISTS (SELECT 1 FROM alert_reads r WHERE r.user_id = $1 AND r.alert_id = a.id))
         + (SELECT count(*) FROM fleet_baselines b
             WHERE NOT EXISTS (SELECT 1 FROM fleet_baseline_reads r
                                WHERE r.user_id = $1 AND r.baseline_id = b.id)) AS n`,
        [userId],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async markRead(userId, target) {
      if (target === "all" || "matching" in target) {
        // Everything the page lists with its filter (ROWS'): $2 a fleet, $3 a kind, each null
        // for all.
        const filter = target === "all" ? {} : target.matching;
        await sql(
          `WITH alerts AS (
             INSERT INTO alert_reads (user_id, alert_id)
             SELECT $1, id FROM vehicle_alerts a WHERE ${NOTIFIED}
               AND ($2::text IS NULL OR a.registration IN
                     (SELECT registration FROM fleet_vehicles WHERE fleet_id = $2))
               AND ($3::text IS NULL OR a.kind = $3) AND coalesce($3, '') <> 'first-check'
             ON CONFLICT DO NOTHING)
           INSERT INTO fleet_baseline_reads (user_id, baseline_id)
           SELECT $1, id FROM fleet_baselines
           WHERE ($2::text IS NULL OR fleet_id = $2) AND ($3::text IS NULL OR $3 = 'first-check')
           ON CONFLICT DO NOTHING`,
          [userId, filter.fleetId ?? null, filter.kind ?? null],
        );
      } else if ("alerts" in target)
        await sql(
          `INSERT INTO alert_reads (user_id, alert_id)
           SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`,
          [userId, [...target.alerts]],
        );
      else if ("group" in target)
        await sql(
          `INSERT INTO alert_reads (user_id, alert_id)
           SELECT $1, id FROM vehicle_alerts a
           WHERE a.run_id = $2 AND a.kind = $3 AND NOT a.baseline
             AND a.registration IN (SELECT registration FROM fleet_vehicles WHERE fleet_id = $4)
           ON CONFLICT DO NOTHING`,
          [userId, target.group.runId, target.group.kind, target.group.fleetId],
        );
      else
        await sql(
          `INSERT INTO fleet_baseline_reads (user_id, baseline_id)
           SELECT $1, id FROM fleet_baselines WHERE id = $2 ON CONFLICT DO NOTHING`,
          [userId, target.firstCheck],
        );
    },
    async startWatchRun(kind, at) {
      const { rows } = await sql<{ id: string }>(
        "INSERT INTO watch_runs (kind, started_at) VALUES ($1, $2) RETURNING id",
        [kind, at],
      );
      return Number(rows[0]!.id);
    },
    async finishWatchRun(id, end) {
      await sql(
        `UPDATE watch_runs SET finished_at = $2, outcome = $3, vehicles = $4, unknown = $5,
           alerts = $6 WHERE id = $1`,
        [
          id,
          end.finishedAt,
          end.outcome,
          end.vehicles,
          end.unknown,
          end.alerts,
        ],
      );
    },
    async watchRuns(limit) {
      const { rows } = await sql<RunRow>(
        "SELECT * FROM watch_runs ORDER BY id DESC LIMIT $1",
        [limit],
      );
      return rows.map(toRun);
    },
    async watchSetting(name) {
      const { rows } = await sql<{ value: string }>(
        "SELECT value FROM watch_settings WHERE name = $1",
        [name],
      );
      return rows[0]?.value;
    },
    async setWatchSetting(name, value) {
      await sql(
        `INSERT INTO watch_settings (name, value) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
        [name, value],
      );
    },
    async watchSettingOnce(name, value) {
      // DO UPDATE with the value it has, so RETURNING gives the row either way.
      const { rows } = await sql<{ value: string }>(
        `INSERT INTO watch_settings (name, value) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET value = watch_settings.value RETURNING value`,
        [name, value],
      );
      return rows[0]!.value;
    },
    async watchStates(registrations) {
      const list = [...registrations];
      const { rows: states } = await sql<{
        registration: string;
        facts: VehicleFacts | null;
        checked_at: string | null;
        unknown_since: string | null;
      }>(
        `SELECT registration, facts, checked_at, unknown_since FROM watched_vehicles
         WHERE registration = ANY ($1::text[])`,
        [list],
      );
      const { rows: open } = await sql<AlertRow>(
        `SELECT * FROM vehicle_alerts
         WHERE registration = ANY ($1::text[]) AND closed_at IS NULL ORDER BY id`,
        [list],
      );
      const byRegistration = new Map(states.map((s) => [s.registration, s]));
      return list.map((registration) => {
        const row = byRegistration.get(registration);
        return {
          registration,
          facts: row?.facts ?? undefined,
          checkedAt: row?.checked_at ? Number(row.checked_at) : undefined,
          unknownSince: row?.unknown_since
            ? Number(row.unknown_since)
            : undefined,
          openAlerts: open
            .filter((alert) => alert.registration === registration)
            .map(toAlertRow),
        };
      });
    },
    recordRechecks(rechecks, runId) {
      return reachingPostgres(() =>
        inPgTransaction(pool, async (client) => {
          const opened: StoredAlert[] = [];
          for (const recheck of rechecks)
            await record(client, recheck, opened, runId);
          return opened;
        }),
      );
    },
    async vehicleTimeline(registration) {
      const { rows } = await sql<TimelineRow>(
        `SELECT at, area, before, after FROM vehicle_timeline
         WHERE registration = $1 ORDER BY id DESC`,
        [registration],
      );
      return rows.map(toEntry);
    },
    async fleetChangesSince(fleetId, since) {
      const { rows } = await sql<TimelineRow & { registration: string }>(
        `SELECT t.registration, t.at, t.area, t.before, t.after
         FROM fleet_vehicles f JOIN vehicle_timeline t ON t.registration = f.registration
         WHERE f.fleet_id = $1 AND t.at >= $2 ORDER BY t.id DESC`,
        [fleetId, since],
      );
      return rows.map((row) => ({
        registration: row.registration,
        ...toEntry(row),
      }));
    },
    async vehicleAlerts(registration) {
      const { rows } = await sql<AlertRow>(
        "SELECT * FROM vehicle_alerts WHERE registration = $1 ORDER BY id DESC",
        [registration],
      );
      return rows.map(toAlertRow);
    },
  };
}
