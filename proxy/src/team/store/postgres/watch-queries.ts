import type { PgPool } from "@vics/server-kit/postgres";
import { inPgTransaction } from "@vics/server-kit/postgres";
import { reachingPostgres } from "@vics/server-kit/postgres-errors";
import {
  toWatchState,
  type AlertRow,
  type GroupAlertRow,
  onReadTarget,
  type PageRow,
  type WatchedRow,
} from "../watch-rows.ts";
import { notificationPageOf } from "../notification-page.ts";
import {
  notificationStatements,
  type NotificationSqlStyle,
} from "../notification-sql.ts";
import type { Sql } from "./database.ts";
import type { KyselyStore } from "../kysely/spelling.ts";
import type { EngineWatchQueries } from "../kysely/watch-queries.ts";
import { recheckRecorder } from "../kysely/fleet-rechecks.ts";

const PG: NotificationSqlStyle = {
  no: "false",
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

/** The re-checks' statements PostgreSQL spells its own way; the rest are kysely/watch-queries.ts. */
export function watchQueries(
  pool: PgPool,
  sql: Sql,
  kysely: KyselyStore,
): EngineWatchQueries {
  const recheckWrites = recheckRecorder(kysely);
  return {
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
      const { rows: states } = await sql<WatchedRow & { registration: string }>(
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
      return list.map((registration) =>
        toWatchState(
          registration,
          byRegistration.get(registration),
          open.filter((alert) => alert.registration === registration),
        ),
      );
    },
    recordRechecks(rechecks, runId) {
      return reachingPostgres(() =>
        inPgTransaction(pool, async (client) => {
          const writes = recheckWrites(rechecks, runId);
          let step = writes.next();
          while (!step.done) {
            const { sql: text, parameters } = step.value;
            const { rows } = await client.query(text, [...parameters]);
            step = writes.next(rows);
          }
          return step.value;
        }),
      );
    },
  };
}
