import type { DatabaseSync } from "node:sqlite";
import { inTransaction } from "@vics/shared/server/sqlite";
import type { VehicleFacts } from "@vics/shared";
import {
  toRun,
  type RunRow,
  toAlertRow,
  type AlertRow,
} from "../watch-rows.ts";
import type {
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
  const openAlert = db.prepare(
    `INSERT INTO vehicle_alerts (registration, kind, key, detail, opened_at, closed_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (registration, kind, key) WHERE closed_at IS NULL DO NOTHING
     RETURNING *`,
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

  const notifications = db.prepare(
    `SELECT a.*, r.alert_id IS NOT NULL AS read FROM vehicle_alerts a
     LEFT JOIN alert_reads r ON r.alert_id = a.id AND r.user_id = ?
     WHERE a.registration IN (${SAVED_REGISTRATIONS})
     ORDER BY a.id DESC LIMIT ?`,
  );
  const unread = db.prepare(
    `SELECT count(*) AS n FROM vehicle_alerts a
     WHERE a.registration IN (${SAVED_REGISTRATIONS})
       AND NOT EXISTS (SELECT 1 FROM alert_reads r WHERE r.user_id = ? AND r.alert_id = a.id)`,
  );
  const readOne = db.prepare(
    "INSERT INTO alert_reads (user_id, alert_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
  );
  const readAll = db.prepare(
    `INSERT INTO alert_reads (user_id, alert_id)
     SELECT ?, id FROM vehicle_alerts
     WHERE registration IN (${SAVED_REGISTRATIONS})
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
    async notifications(userId, limit) {
      const rows = notifications.all(userId, limit) as unknown as (AlertRow & {
        read: number;
      })[];
      return rows.map((row) => ({
        alert: toAlertRow(row),
        read: row.read === 1,
      }));
    },
    async unreadCount(userId) {
      return Number((unread.get(userId) as { n: number }).n);
    },
    async markRead(userId, alertIds) {
      inTransaction(db, () => {
        if (alertIds === "all") readAll.run(userId);
        else for (const id of alertIds) readOne.run(userId, id);
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
    async recordRechecks(rechecks) {
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
          for (const alert of recheck.opened) {
            const row = openAlert.get(
              registration,
              alert.kind,
              alert.key,
              JSON.stringify(alert.detail),
              at,
              alert.resolved ? at : null,
            ) as AlertRow | undefined;
            if (row) opened.push(toAlertRow(row));
          }
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
