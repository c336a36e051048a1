import type { DatabaseSync } from "node:sqlite";
import { setImmediate as nextTurn } from "node:timers/promises";
import { inTransaction } from "@vics/server-kit/sqlite";
import type { VehicleFacts } from "@vics/shared";
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
import type { StoredAlert, WatchState } from "../watch-store.ts";
import type { EngineWatchQueries } from "../kysely/watch-queries.ts";

/** The saved fleets' vehicles: not a draft's (version 0, a new fleet still being written). */
const SAVED_REGISTRATIONS = `SELECT registration FROM fleet_vehicles
  WHERE fleet_id IN (SELECT id FROM fleets WHERE version > 0)`;

const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value);
const LITE: NotificationSqlStyle = {
  no: "0",
  savedOnly: true,
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
export function watchQueries(db: DatabaseSync): EngineWatchQueries {
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
  const saveFacts = db.prepare(
    `INSERT INTO watched_vehicles (registration, facts, checked_at, unknown_since)
     VALUES (?, ?, ?, NULL)
     ON CONFLICT (registration) DO UPDATE SET
       facts = excluded.facts, checked_at = excluded.checked_at, unknown_since = NULL`,
  );
  const markUnknown = db.prepare(
    `INSERT INTO watched_vehicles (registration, facts, checked_at, unknown_since)
     VALUES (?, NULL, NULL, ?)
     ON CONFLICT (registration) DO UPDATE SET
       unknown_since = coalesce(unknown_since, excluded.unknown_since)`,
  );
  const addTimeline = db.prepare(
    `INSERT INTO vehicle_timeline (registration, at, area, before, after)
     VALUES (?, ?, ?, ?, ?)`,
  );
  // A baseline alert is planned already: it is delivered to nobody (decision 054).
  const openAlert = db.prepare(
    `INSERT INTO vehicle_alerts
       (registration, kind, key, detail, opened_at, closed_at, run_id, baseline, planned_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, CASE WHEN ? = 1 THEN ? END)
     ON CONFLICT (registration, kind, key) WHERE closed_at IS NULL DO NOTHING
     RETURNING *`,
  );
  const addBaseline = db.prepare(
    `INSERT INTO fleet_baselines (fleet_id, run_id, at, vehicles, attention)
     SELECT fleet_id, ?, ?, 1, ? FROM fleet_vehicles
      WHERE registration = ? AND fleet_id IN (SELECT id FROM fleets WHERE version > 0)
     ON CONFLICT (run_id, fleet_id) DO UPDATE SET at = excluded.at,
       vehicles = vehicles + 1, attention = attention + excluded.attention`,
  );
  const closeAlert = db.prepare(
    `UPDATE vehicle_alerts SET closed_at = ?
     WHERE registration = ? AND kind = ? AND key = ? AND closed_at IS NULL`,
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

  const unknownBefore = db.prepare(
    `SELECT count(*) AS n FROM watched_vehicles
     WHERE unknown_since < ? AND registration IN (${SAVED_REGISTRATIONS})`,
  );

  return {
    async unknownBefore(before) {
      return Number((unknownBefore.get(before) as { n: number }).n);
    },
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
      return registrations.map((registration): WatchState => {
        const row = state.get(registration) as
          | {
              facts: string | null;
              checked_at: number | null;
              unknown_since: number | null;
            }
          | undefined;
        return {
          registration,
          facts: row?.facts
            ? (JSON.parse(row.facts) as VehicleFacts)
            : undefined,
          checkedAt: row?.checked_at ?? undefined,
          unknownSince: row?.unknown_since ?? undefined,
          openAlerts: (open.all(registration) as unknown as AlertRow[]).map(
            toAlertRow,
          ),
        };
      });
    },
    async recordRechecks(rechecks, runId) {
      return inTransaction(db, () => {
        const opened: StoredAlert[] = [];
        for (const recheck of rechecks) {
          const { registration, at } = recheck;
          if ("unknown" in recheck) {
            markUnknown.run(registration, at);
            continue;
          }
          saveFacts.run(registration, JSON.stringify(recheck.facts), at);
          for (const entry of recheck.timeline)
            addTimeline.run(
              registration,
              at,
              entry.area,
              json(entry.before),
              json(entry.after),
            );
          for (const alert of recheck.closed)
            closeAlert.run(at, registration, alert.kind, alert.key);
          const baseline = recheck.baseline === true ? 1 : 0;
          for (const alert of recheck.opened) {
            const row = openAlert.get(
              registration,
              alert.kind,
              alert.key,
              JSON.stringify(alert.detail),
              at,
              alert.resolved ? at : null,
              runId ?? null,
              baseline,
              baseline,
              at,
            ) as AlertRow | undefined;
            if (row) opened.push(toAlertRow(row));
          }
          if (baseline && runId !== undefined)
            addBaseline.run(runId, at, needsAttention(recheck), registration);
        }
        return opened;
      });
    },
  };
}
