import type { PgClient, PgPool } from "@vics/server-kit/postgres";
import { inPgTransaction } from "@vics/server-kit/postgres";
import { reachingPostgres } from "@vics/server-kit/postgres-errors";
import type { VehicleFacts } from "@vics/shared";
import type { Recheck, StoredAlert } from "../watch-store.ts";
import {
  needsAttention,
  toAlertRow,
  type AlertRow,
  type GroupAlertRow,
  onReadTarget,
  type PageRow,
} from "../watch-rows.ts";
import { notificationPageOf } from "../notification-page.ts";
import {
  notificationStatements,
  type NotificationSqlStyle,
} from "../notification-sql.ts";
import type { Sql } from "./database.ts";
import type { EngineWatchQueries } from "../kysely/watch-queries.ts";

const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value);

const PG: NotificationSqlStyle = {
  no: "false",
  savedOnly: false,
  inList: (placeholder, type) => `= ANY (${placeholder}::${type}[])`,
};
const NOTIFICATIONS = notificationStatements(PG, {
  filter: { user: "$1", fleet: "$2::text", kind: "$3::text" },
  page: { limit: "$4", offset: "$5" },
  groupAlerts: {
    user: "$1",
    runs: "$2",
    ids: "$3",
    fleets: "$4",
    kinds: "$5",
    cap: "$6",
  },
  unreadUser: "$1",
  readGroup: { user: "$1", run: "$2", kind: "$3", fleet: "$4" },
  readBaseline: { user: "$1", id: "$2" },
});
const { page: PAGE, count: COUNT, groupAlerts: GROUP_ALERTS } = NOTIFICATIONS;
const { unread: UNREAD, readGroup: READ_GROUP } = NOTIFICATIONS;
const READ_BASELINE = NOTIFICATIONS.readBaseline;
// Everything the page lists with its filter, in one statement.
const READ_MATCHING = `WITH alerts AS (${NOTIFICATIONS.readMatchingAlerts})
  ${NOTIFICATIONS.readMatchingBaselines}`;

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

/** The re-checks' statements PostgreSQL spells its own way; the rest are kysely/watch-queries.ts. */
export function watchQueries(pool: PgPool, sql: Sql): EngineWatchQueries {
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
      const filter = [query.userId, query.fleetId ?? null, query.kind ?? null];
      return notificationPageOf(query, {
        rows: async (limit, offset) =>
          (await sql<PageRow>(PAGE, [...filter, limit, offset])).rows,
        groupAlerts: async (groups) =>
          (
            await sql<GroupAlertRow>(GROUP_ALERTS, [
              query.userId,
              groups.runs,
              groups.ids,
              groups.fleets,
              groups.kinds,
              query.groupAlerts,
            ])
          ).rows,
        total: async () => (await sql<{ n: string }>(COUNT, filter)).rows[0]?.n,
      });
    },
    async unreadCount(userId) {
      const { rows } = await sql<{ n: string }>(UNREAD, [userId]);
      return Number(rows[0]?.n ?? 0);
    },
    async markRead(userId, target) {
      await onReadTarget(target, {
        matching: (filter) =>
          sql(READ_MATCHING, [
            userId,
            filter.fleetId ?? null,
            filter.kind ?? null,
          ]),
        alerts: (ids) =>
          sql(
            `INSERT INTO alert_reads (user_id, alert_id)
             SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`,
            [userId, [...ids]],
          ),
        group: ({ runId, kind, fleetId }) =>
          sql(READ_GROUP, [userId, runId, kind, fleetId]),
        firstCheck: (id) => sql(READ_BASELINE, [userId, id]),
      });
    },
    async unanswered(registrations) {
      const { rows } = await sql<{ registration: string }>(
        `SELECT asked.registration
         FROM unnest($1::text[]) WITH ORDINALITY AS asked (registration, position)
         WHERE NOT EXISTS (SELECT 1 FROM watched_vehicles w
           WHERE w.registration = asked.registration AND w.facts IS NOT NULL)
         ORDER BY asked.position`,
        [[...registrations]],
      );
      return rows.map((row) => row.registration);
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
  };
}
