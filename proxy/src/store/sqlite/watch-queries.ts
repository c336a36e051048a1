import type { DatabaseSync } from "node:sqlite";
import { inTransaction } from "@vics/shared/server/sqlite";
import type { VehicleFacts } from "@vics/shared";
import {
  needsAttention,
  toRun,
  type RunRow,
  toAlertRow,
  type AlertRow,
} from "../watch-rows.ts";
import type {
  NotificationRow,
  StoredAlert,
  StoredTimelineEntry,
  TimelineArea,
  WatchState,
  WatchStore,
} from "../watch-store.ts";

/** The saved fleets' vehicles: not a draft's (version 0, a new fleet still being written). */
const SAVED_REGISTRATIONS = `SELECT registration FROM fleet_vehicles
  WHERE fleet_id IN (SELECT id FROM fleets WHERE version > 0)`;

const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value);
const parsed = (text: string | null): unknown =>
  text === null ? null : JSON.parse(text);

interface TimelineRow {
  at: number;
  area: TimelineArea;
  before: string | null;
  after: string | null;
}

const toEntry = (row: TimelineRow): StoredTimelineEntry => ({
  at: row.at,
  area: row.area,
  before: parsed(row.before),
  after: parsed(row.after),
});

interface PageRow {
  type: "alerts" | "first-check";
  grp: number;
  fleet_id: string;
  fleet_name: string;
  kind: string;
  at: number;
  top: number;
  count: number;
  unread: number;
  attention: number;
}

export function watchQueries(db: DatabaseSync): WatchStore {
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
  const timeline = db.prepare(
    `SELECT at, area, before, after FROM vehicle_timeline
     WHERE registration = ? ORDER BY id DESC`,
  );
  const changesSince = db.prepare(
    `SELECT t.registration, t.at, t.area, t.before, t.after
     FROM fleet_vehicles f JOIN vehicle_timeline t ON t.registration = f.registration
     WHERE f.fleet_id = ? AND t.at >= ? ORDER BY t.id DESC`,
  );
  const alerts = db.prepare(
    "SELECT * FROM vehicle_alerts WHERE registration = ? ORDER BY id DESC",
  );

  const startRun = db.prepare(
    "INSERT INTO watch_runs (kind, started_at) VALUES (?, ?) RETURNING id",
  );
  const finishRun = db.prepare(
    `UPDATE watch_runs SET finished_at = ?, outcome = ?, vehicles = ?, unknown = ?, alerts = ?
     WHERE id = ?`,
  );
  const runs = db.prepare("SELECT * FROM watch_runs ORDER BY id DESC LIMIT ?");
  const setting = db.prepare("SELECT value FROM watch_settings WHERE name = ?");
  const setSetting = db.prepare(
    `INSERT INTO watch_settings (name, value) VALUES (?, ?)
     ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
  );
  const settingOnce = db.prepare(
    `INSERT INTO watch_settings (name, value) VALUES (?, ?)
     ON CONFLICT (name) DO UPDATE SET value = watch_settings.value RETURNING value`,
  );

  /** The alerts that are notifications: of a saved fleet's vehicles, not a baseline's. */
  const NOTIFIED = `a.baseline = 0 AND a.registration IN (${SAVED_REGISTRATIONS})`;
  /** A row per (sweep, fleet, kind): an alert older than the grouping is a row of its own. */
  const ROWS = `
    SELECT 'alerts' AS type, coalesce(a.run_id, -a.id) AS grp, v.fleet_id, f.name AS fleet_name,
      a.kind, max(a.opened_at) AS at, max(a.id) AS top, count(*) AS count,
      sum(NOT EXISTS (SELECT 1 FROM alert_reads r WHERE r.user_id = :user AND r.alert_id = a.id))
        AS unread, 0 AS attention
    FROM vehicle_alerts a
    JOIN fleet_vehicles v ON v.registration = a.registration
    JOIN fleets f ON f.id = v.fleet_id AND f.version > 0
    WHERE a.baseline = 0 AND (:fleet IS NULL OR v.fleet_id = :fleet)
      AND (:kind IS NULL OR a.kind = :kind) AND coalesce(:kind, '') <> 'first-check'
    GROUP BY grp, v.fleet_id, a.kind
    UNION ALL
    SELECT 'first-check', b.id, b.fleet_id, f.name, 'first-check', b.at, b.run_id, b.vehicles,
      NOT EXISTS (SELECT 1 FROM fleet_baseline_reads r WHERE r.user_id = :user AND r.baseline_id = b.id),
      b.attention
    FROM fleet_baselines b JOIN fleets f ON f.id = b.fleet_id AND f.version > 0
    WHERE (:fleet IS NULL OR b.fleet_id = :fleet) AND (:kind IS NULL OR :kind = 'first-check')`;
  const page = db.prepare(
    `SELECT * FROM (${ROWS}) ORDER BY at DESC, top DESC, fleet_name, kind LIMIT :limit OFFSET :offset`,
  );
  const total = db.prepare(`SELECT count(*) AS n FROM (${ROWS})`);
  const groupAlerts = db.prepare(
    `SELECT a.*, EXISTS (SELECT 1 FROM alert_reads r WHERE r.user_id = :user AND r.alert_id = a.id)
        AS read
     FROM vehicle_alerts a
     WHERE (a.run_id = :run OR (a.run_id IS NULL AND a.id = :id))
       AND a.kind = :kind AND a.baseline = 0
       AND a.registration IN (SELECT registration FROM fleet_vehicles WHERE fleet_id = :fleet)
     ORDER BY a.id DESC LIMIT :limit`,
  );
  const unread = db.prepare(
    `SELECT (SELECT count(*) FROM vehicle_alerts a WHERE ${NOTIFIED}
       AND NOT EXISTS (SELECT 1 FROM alert_reads r WHERE r.user_id = :user AND r.alert_id = a.id))
     + (SELECT count(*) FROM fleet_baselines b
         WHERE b.fleet_id IN (SELECT id FROM fleets WHERE version > 0)
           AND NOT EXISTS (SELECT 1 FROM fleet_baseline_reads r
                            WHERE r.user_id = :user AND r.baseline_id = b.id)) AS n`,
  );
  const readOne = db.prepare(
    "INSERT INTO alert_reads (user_id, alert_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
  );
  const readGroup = db.prepare(
    `INSERT INTO alert_reads (user_id, alert_id)
     SELECT ?, id FROM vehicle_alerts a
     WHERE a.run_id = ? AND a.kind = ? AND a.baseline = 0
       AND a.registration IN (SELECT registration FROM fleet_vehicles WHERE fleet_id = ?)
     ON CONFLICT DO NOTHING`,
  );
  const readBaseline = db.prepare(
    `INSERT INTO fleet_baseline_reads (user_id, baseline_id)
     SELECT ?, id FROM fleet_baselines WHERE id = ? ON CONFLICT DO NOTHING`,
  );
  // Everything the page lists with its filter (ROWS'): :fleet and :kind, each null for all.
  const readAll = db.prepare(
    `INSERT INTO alert_reads (user_id, alert_id)
     SELECT :user, id FROM vehicle_alerts a WHERE ${NOTIFIED}
       AND (:fleet IS NULL OR a.registration IN
             (SELECT registration FROM fleet_vehicles WHERE fleet_id = :fleet))
       AND (:kind IS NULL OR a.kind = :kind) AND coalesce(:kind, '') <> 'first-check'
     ON CONFLICT DO NOTHING`,
  );
  const readAllBaselines = db.prepare(
    `INSERT INTO fleet_baseline_reads (user_id, baseline_id)
     SELECT :user, id FROM fleet_baselines
     WHERE (:fleet IS NULL OR fleet_id = :fleet) AND (:kind IS NULL OR :kind = 'first-check')
     ON CONFLICT DO NOTHING`,
  );

  const unknownBefore = db.prepare(
    `SELECT count(*) AS n FROM watched_vehicles
     WHERE unknown_since < ? AND registration IN (${SAVED_REGISTRATIONS})`,
  );

  return {
    async unknownBefore(before) {
      return Number((unknownBefore.get(before) as { n: number }).n);
    },
    async notificationPage(query) {
      const params = {
        user: query.userId,
        fleet: query.fleetId ?? null,
        kind: query.kind ?? null,
      };
      const rows = page.all({
        ...params,
        limit: query.pageSize,
        offset: query.page * query.pageSize,
      }) as unknown as PageRow[];
      return {
        total: Number((total.get(params) as { n: number }).n),
        rows: rows.map((row): NotificationRow => {
          if (row.type === "first-check")
            return {
              type: "first-check",
              baseline: {
                id: row.grp,
                fleetId: row.fleet_id,
                fleetName: row.fleet_name,
                runId: row.top,
                at: row.at,
                vehicles: row.count,
                attention: row.attention,
              },
              read: row.unread === 0,
            };
          const alerts = groupAlerts.all({
            user: query.userId,
            run: row.grp < 0 ? null : row.grp,
            id: -row.grp,
            kind: row.kind,
            fleet: row.fleet_id,
            limit: query.groupAlerts,
          }) as unknown as (AlertRow & { read: number })[];
          return {
            type: "alerts",
            runId: row.grp < 0 ? null : row.grp,
            fleetId: row.fleet_id,
            fleetName: row.fleet_name,
            kind: row.kind as StoredAlert["kind"],
            at: row.at,
            count: row.count,
            unread: row.unread,
            alerts: alerts.map((alert) => ({
              alert: toAlertRow(alert),
              read: alert.read === 1,
            })),
          };
        }),
      };
    },
    async unreadCount(userId) {
      return Number((unread.get({ user: userId }) as { n: number }).n);
    },
    async markRead(userId, target) {
      inTransaction(db, () => {
        if (target === "all" || "matching" in target) {
          const filter = target === "all" ? {} : target.matching;
          const params = {
            user: userId,
            fleet: filter.fleetId ?? null,
            kind: filter.kind ?? null,
          };
          readAll.run(params);
          readAllBaselines.run(params);
        } else if ("alerts" in target)
          for (const id of target.alerts) readOne.run(userId, id);
        else if ("group" in target) {
          const { runId, kind, fleetId } = target.group;
          readGroup.run(userId, runId, kind, fleetId);
        } else readBaseline.run(userId, target.firstCheck);
      });
    },
    async startWatchRun(kind, at) {
      return Number((startRun.get(kind, at) as { id: number }).id);
    },
    async finishWatchRun(id, end) {
      finishRun.run(
        end.finishedAt,
        end.outcome,
        end.vehicles,
        end.unknown,
        end.alerts,
        id,
      );
    },
    async watchRuns(limit) {
      return (runs.all(limit) as unknown as RunRow[]).map(toRun);
    },
    async watchSetting(name) {
      return (setting.get(name) as { value: string } | undefined)?.value;
    },
    async setWatchSetting(name, value) {
      setSetting.run(name, value);
    },
    async watchSettingOnce(name, value) {
      return (settingOnce.get(name, value) as { value: string }).value;
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
    async vehicleTimeline(registration) {
      const rows = timeline.all(registration) as unknown as TimelineRow[];
      return rows.map(toEntry);
    },
    async fleetChangesSince(fleetId, since) {
      const rows = changesSince.all(
        fleetId,
        since,
      ) as unknown as (TimelineRow & {
        registration: string;
      })[];
      return rows.map((row) => ({
        registration: row.registration,
        ...toEntry(row),
      }));
    },
    async vehicleAlerts(registration) {
      return (alerts.all(registration) as unknown as AlertRow[]).map(
        toAlertRow,
      );
    },
  };
}
