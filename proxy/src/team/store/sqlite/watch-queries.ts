import type { DatabaseSync } from "node:sqlite";
import { setImmediate as nextTurn } from "node:timers/promises";
import { inTransaction } from "@vics/server-kit/sqlite";
import { onReadTarget, toWatchState } from "../watch-rows.ts";
import type {
  AlertRow,
  GroupAlertRow,
  PageRow,
  WatchedRow,
} from "../watch-rows.ts";
import { notificationPageOf } from "../notification-page.ts";
import {
  notificationStatements,
  type NotificationSqlStyle,
} from "../notification-sql.ts";
import type { EngineWatchQueries } from "../kysely/watch-queries.ts";
import { recheckRecorder } from "../kysely/fleet-rechecks.ts";
import { sqliteRunner } from "../kysely/node-sqlite-dialect.ts";
import type { KyselyStore } from "../kysely/spelling.ts";

const LITE: NotificationSqlStyle = {
  no: "0",
  inList: (placeholder) => `IN (SELECT value FROM json_each(${placeholder}))`,
};
const FILTER = { user: ":user", fleet: ":fleet", kind: ":kind" };
const NOTIFICATIONS = notificationStatements(LITE, {
  filter: FILTER,
  page: { limit: ":limit", offset: ":offset" },
  groupAlerts: {
    user: ":user",
    runs: ":runs",
    ids: ":ids",
    fleets: ":fleets",
    kinds: ":kinds",
    cap: ":cap",
  },
  unreadUser: ":user",
  readGroup: { user: "?", run: "?", kind: "?", fleet: "?" },
  readBaseline: { user: "?", id: "?" },
});

/** Registrations read per statement by `unanswered`, with a turn of the event loop between. */
const UNANSWERED_SLICE = 2_000;

/** The re-checks' statements SQLite spells its own way; the rest are kysely/watch-queries.ts. */
export function watchQueries(
  db: DatabaseSync,
  kysely: KyselyStore,
): EngineWatchQueries {
  const recheckWrites = recheckRecorder(kysely);
  // recheckWrites' few statement texts, each prepared once; run inside inTransaction.
  const run = sqliteRunner(db);
  const unansweredSlice = db.prepare(
    `SELECT value AS registration FROM json_each(?) AS asked
     WHERE NOT EXISTS (SELECT 1 FROM watched_vehicles w
       WHERE w.registration = asked.value AND w.facts IS NOT NULL)
     ORDER BY asked.key`,
  );
  const state = db.prepare(
    "SELECT facts, checked_at, unknown_since FROM watched_vehicles WHERE registration = ?",
  );
  const open = db.prepare(
    "SELECT * FROM vehicle_alerts WHERE registration = ? AND closed_at IS NULL ORDER BY id",
  );
  const page = db.prepare(NOTIFICATIONS.page);
  const total = db.prepare(NOTIFICATIONS.count);
  const groupAlerts = db.prepare(NOTIFICATIONS.groupAlerts);
  const unread = db.prepare(NOTIFICATIONS.unread);
  const readOne = db.prepare(
    "INSERT INTO alert_reads (user_id, alert_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
  );
  const readGroup = db.prepare(NOTIFICATIONS.readGroup);
  const readBaseline = db.prepare(NOTIFICATIONS.readBaseline);
  const readAll = db.prepare(NOTIFICATIONS.readMatchingAlerts);
  const readAllBaselines = db.prepare(NOTIFICATIONS.readMatchingBaselines);

  return {
    async notificationPage(query) {
      const filter = {
        user: query.userId,
        fleet: query.fleetId ?? null,
        kind: query.kind ?? null,
      };
      return notificationPageOf(query, {
        rows: async (limit, offset) =>
          page.all({ ...filter, limit, offset }) as unknown as PageRow[],
        groupAlerts: async (groups) =>
          groupAlerts.all({
            user: query.userId,
            runs: JSON.stringify(groups.runs),
            ids: JSON.stringify(groups.ids),
            fleets: JSON.stringify(groups.fleets),
            kinds: JSON.stringify(groups.kinds),
            cap: query.groupAlerts,
          }) as unknown as GroupAlertRow[],
        total: async () => (total.get(filter) as { n: number }).n,
      });
    },
    async unreadCount(userId) {
      return Number((unread.get({ user: userId }) as { n: number }).n);
    },
    async markRead(userId, target) {
      inTransaction(db, () =>
        onReadTarget(target, {
          matching: (filter) => {
            const params = {
              user: userId,
              fleet: filter.fleetId ?? null,
              kind: filter.kind ?? null,
            };
            readAll.run(params);
            readAllBaselines.run(params);
          },
          alerts: (ids) => {
            for (const id of ids) readOne.run(userId, id);
          },
          group: ({ runId, kind, fleetId }) => {
            readGroup.run(userId, runId, kind, fleetId);
          },
          firstCheck: (id) => {
            readBaseline.run(userId, id);
          },
        }),
      );
    },
    async unanswered(registrations) {
      const found: string[] = [];
      for (let at = 0; at < registrations.length; at += UNANSWERED_SLICE) {
        if (at > 0) await nextTurn();
        const slice = registrations.slice(at, at + UNANSWERED_SLICE);
        const rows = unansweredSlice.all(JSON.stringify(slice)) as {
          registration: string;
        }[];
        found.push(...rows.map((row) => row.registration));
      }
      return found;
    },
    async watchStates(registrations) {
      return registrations.map((registration) =>
        toWatchState(
          registration,
          state.get(registration) as WatchedRow | undefined,
          open.all(registration) as unknown as AlertRow[],
        ),
      );
    },
    async recordRechecks(rechecks, runId) {
      return inTransaction(db, () => {
        const writes = recheckWrites(rechecks, runId);
        let step = writes.next();
        while (!step.done) step = writes.next(run(step.value).rows);
        return step.value;
      });
    },
  };
}
