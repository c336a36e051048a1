// The notifications' SQL for both engines, from one text: each engine names its parameters
// (PostgreSQL's "$1::text", SQLite's ":fleet"), how it writes a list parameter and the baseline
// column's false.

export interface NotificationSqlStyle {
  /** The baseline column's false: a boolean (PostgreSQL) or an integer (SQLite). */
  no: "false" | "0";
  /** "a column is in this list parameter", typed for PostgreSQL's arrays. */
  inList(placeholder: string, type: "bigint" | "text"): string;
}

/** The page's filter: the user, a fleet or null, a kind or null. */
export interface FilterParams {
  user: string;
  fleet: string;
  kind: string;
}

/**
 * Only saved fleets count, on both engines: a draft (version 0, SQLite's new fleet still being
 * written) does not. The rule of kysely/fleet-tables.ts's savedFleetIds, for the text here.
 */
const SAVED_FLEET_IDS = "SELECT id FROM fleets WHERE version > 0";

const FLEET_REGISTRATIONS = `SELECT registration FROM fleet_vehicles
  WHERE fleet_id IN (${SAVED_FLEET_IDS})`;

/** The alerts that are notifications: of a saved fleet's vehicles, not a baseline's. */
const notified = (s: NotificationSqlStyle) =>
  `a.baseline = ${s.no} AND a.registration IN (${FLEET_REGISTRATIONS})`;

/**
 * A row per (sweep, fleet, kind), an alert older than the grouping a row of its own, and the
 * first-check summaries.
 */
const rows = (s: NotificationSqlStyle, p: FilterParams) => `
  SELECT 'alerts' AS type, coalesce(a.run_id, -a.id) AS grp, v.fleet_id, f.name AS fleet_name,
    a.kind, max(a.opened_at) AS at, max(a.id) AS top, count(*) AS count,
    count(*) FILTER (WHERE NOT EXISTS
      (SELECT 1 FROM alert_reads r WHERE r.user_id = ${p.user} AND r.alert_id = a.id)) AS unread,
    0 AS attention
  FROM vehicle_alerts a
  JOIN fleet_vehicles v ON v.registration = a.registration
  JOIN fleets f ON f.id = v.fleet_id AND f.id IN (${SAVED_FLEET_IDS})
  WHERE a.baseline = ${s.no} AND (${p.fleet} IS NULL OR v.fleet_id = ${p.fleet})
    AND (${p.kind} IS NULL OR a.kind = ${p.kind}) AND coalesce(${p.kind}, '') <> 'first-check'
  GROUP BY grp, v.fleet_id, f.name, a.kind
  UNION ALL
  SELECT 'first-check', b.id, b.fleet_id, f.name, 'first-check', b.at, b.run_id, b.vehicles,
    CASE WHEN EXISTS (SELECT 1 FROM fleet_baseline_reads r
                       WHERE r.user_id = ${p.user} AND r.baseline_id = b.id) THEN 0 ELSE 1 END,
    b.attention
  FROM fleet_baselines b
  JOIN fleets f ON f.id = b.fleet_id AND f.id IN (${SAVED_FLEET_IDS})
  WHERE (${p.fleet} IS NULL OR b.fleet_id = ${p.fleet})
    AND (${p.kind} IS NULL OR ${p.kind} = 'first-check')`;

/** A page of the rows, each with `total`: how many rows the filter has on all pages. */
const notificationPageSql = (
  s: NotificationSqlStyle,
  p: FilterParams & { limit: string; offset: string },
) =>
  `SELECT *, count(*) OVER () AS total FROM (${rows(s, p)}) t
   ORDER BY at DESC, top DESC, fleet_name, kind LIMIT ${p.limit} OFFSET ${p.offset}`;

/** How many rows the filter has: for a page past the last, which has no row to say it. */
const notificationCountSql = (s: NotificationSqlStyle, p: FilterParams) =>
  `SELECT count(*) AS n FROM (${rows(s, p)}) t`;

/**
 * The newest `cap` alerts of each group row of a page, in one query: the groups (`grp` and
 * `group_fleet` with the kind) of the sweeps `runs` and older alerts `ids`, in `fleets`, of
 * `kinds`; the caller keeps those of its page's groups.
 */
const groupAlertsSql = (
  s: NotificationSqlStyle,
  p: {
    user: string;
    runs: string;
    ids: string;
    fleets: string;
    kinds: string;
    cap: string;
  },
) =>
  `SELECT * FROM (
     SELECT a.*, coalesce(a.run_id, -a.id) AS grp, v.fleet_id AS group_fleet,
       EXISTS (SELECT 1 FROM alert_reads r WHERE r.user_id = ${p.user} AND r.alert_id = a.id)
         AS read,
       row_number() OVER (PARTITION BY coalesce(a.run_id, -a.id), v.fleet_id, a.kind
                          ORDER BY a.id DESC) AS place
     FROM vehicle_alerts a JOIN fleet_vehicles v ON v.registration = a.registration
     WHERE (a.run_id ${s.inList(p.runs, "bigint")}
            OR (a.run_id IS NULL AND a.id ${s.inList(p.ids, "bigint")}))
       AND a.baseline = ${s.no} AND v.fleet_id ${s.inList(p.fleets, "text")}
       AND a.kind ${s.inList(p.kinds, "text")}
   ) g WHERE place <= ${p.cap} ORDER BY id DESC`;

/** The user's unread notifications: alerts and first-check summaries. */
const unreadSql = (s: NotificationSqlStyle, user: string) =>
  `SELECT (SELECT count(*) FROM vehicle_alerts a WHERE ${notified(s)}
     AND NOT EXISTS (SELECT 1 FROM alert_reads r WHERE r.user_id = ${user} AND r.alert_id = a.id))
   + (SELECT count(*) FROM fleet_baselines b
       WHERE b.fleet_id IN (${SAVED_FLEET_IDS}) AND NOT EXISTS
         (SELECT 1 FROM fleet_baseline_reads r WHERE r.user_id = ${user} AND r.baseline_id = b.id))
     AS n`;

/** Reads a sweep's group row: its alerts of one kind in one fleet. */
const readGroupSql = (
  s: NotificationSqlStyle,
  p: { user: string; run: string; kind: string; fleet: string },
) =>
  `INSERT INTO alert_reads (user_id, alert_id)
   SELECT ${p.user}, id FROM vehicle_alerts a
   WHERE a.run_id = ${p.run} AND a.kind = ${p.kind} AND a.baseline = ${s.no}
     AND a.registration IN (SELECT registration FROM fleet_vehicles WHERE fleet_id = ${p.fleet})
   ON CONFLICT DO NOTHING`;

/** Reads a first-check summary. */
const readBaselineSql = (p: { user: string; id: string }) =>
  `INSERT INTO fleet_baseline_reads (user_id, baseline_id)
   SELECT ${p.user}, id FROM fleet_baselines WHERE id = ${p.id} ON CONFLICT DO NOTHING`;

/** Reads the alerts the page lists with its filter (the rows'): a fleet and a kind, each null for all. */
const readMatchingAlertsSql = (s: NotificationSqlStyle, p: FilterParams) =>
  `INSERT INTO alert_reads (user_id, alert_id)
   SELECT ${p.user}, id FROM vehicle_alerts a WHERE ${notified(s)}
     AND (${p.fleet} IS NULL OR a.registration IN
           (SELECT registration FROM fleet_vehicles WHERE fleet_id = ${p.fleet}))
     AND (${p.kind} IS NULL OR a.kind = ${p.kind}) AND coalesce(${p.kind}, '') <> 'first-check'
   ON CONFLICT DO NOTHING`;

/** Reads the first-check summaries the page lists with its filter. */
const readMatchingBaselinesSql = (p: FilterParams) =>
  `INSERT INTO fleet_baseline_reads (user_id, baseline_id)
   SELECT ${p.user}, id FROM fleet_baselines
   WHERE (${p.fleet} IS NULL OR fleet_id = ${p.fleet})
     AND (${p.kind} IS NULL OR ${p.kind} = 'first-check')
   ON CONFLICT DO NOTHING`;

/** Each statement's placeholders, in the engine's own naming. */
export interface NotificationPlaceholders {
  filter: FilterParams;
  page: { limit: string; offset: string };
  groupAlerts: Parameters<typeof groupAlertsSql>[1];
  unreadUser: string;
  readGroup: Parameters<typeof readGroupSql>[1];
  readBaseline: Parameters<typeof readBaselineSql>[0];
}

/** Every notification statement's text, in one engine's style and placeholders. */
export const notificationStatements = (
  s: NotificationSqlStyle,
  p: NotificationPlaceholders,
) => ({
  page: notificationPageSql(s, { ...p.filter, ...p.page }),
  count: notificationCountSql(s, p.filter),
  groupAlerts: groupAlertsSql(s, p.groupAlerts),
  unread: unreadSql(s, p.unreadUser),
  readGroup: readGroupSql(s, p.readGroup),
  readBaseline: readBaselineSql(p.readBaseline),
  readMatchingAlerts: readMatchingAlertsSql(s, p.filter),
  readMatchingBaselines: readMatchingBaselinesSql(p.filter),
});
