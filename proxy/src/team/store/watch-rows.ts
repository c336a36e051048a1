// Watch runs' and alerts' rows as both engines return them: PostgreSQL gives bigints as text
// and jsonb parsed, SQLite gives numbers and JSON as text.
import type { AlertKind, VehicleFacts } from "@vics/shared";
import type {
  NotificationRow,
  ReadTarget,
  StoredAlert,
  WatchRun,
  WatchState,
} from "./watch-store.ts";

/** A JSON column's value: parsed already (jsonb), or text (SQLite). */
export const fromJson = (value: unknown): unknown =>
  typeof value === "string" ? JSON.parse(value) : value;

export interface AlertRow {
  id: number | string;
  registration: string;
  kind: AlertKind;
  key: string;
  detail: unknown;
  opened_at: number | string;
  closed_at: number | string | null;
}

export const toAlertRow = (row: AlertRow): StoredAlert => ({
  id: Number(row.id),
  registration: row.registration,
  kind: row.kind,
  key: row.key,
  detail: fromJson(row.detail) as StoredAlert["detail"],
  openedAt: Number(row.opened_at),
  closedAt: row.closed_at === null ? null : Number(row.closed_at),
});

/** A watched_vehicles row: undefined for a vehicle never re-checked. */
export interface WatchedRow {
  facts: unknown;
  checked_at: number | string | null;
  unknown_since: number | string | null;
}

export const toWatchState = (
  registration: string,
  row: WatchedRow | undefined,
  openAlerts: readonly AlertRow[],
): WatchState => ({
  registration,
  facts: row?.facts ? (fromJson(row.facts) as VehicleFacts) : undefined,
  checkedAt: row?.checked_at == null ? undefined : Number(row.checked_at),
  unknownSince:
    row?.unknown_since == null ? undefined : Number(row.unknown_since),
  openAlerts: openAlerts.map(toAlertRow),
});

export interface RunRow {
  id: number | string;
  kind: WatchRun["kind"];
  started_at: number | string;
  finished_at: number | string | null;
  outcome: string | null;
  vehicles: number;
  unknown: number;
  alerts: number;
}

export const toRun = (row: RunRow): WatchRun => ({
  id: Number(row.id),
  kind: row.kind,
  startedAt: Number(row.started_at),
  finishedAt: row.finished_at === null ? null : Number(row.finished_at),
  outcome: row.outcome,
  vehicles: row.vehicles,
  unknown: row.unknown,
  alerts: row.alerts,
});

/** 1 when a first check left the vehicle needing attention: an alert open, not one told ended. */
export const needsAttention = (recheck: {
  opened: readonly { resolved?: boolean }[];
}) => (recheck.opened.some((alert) => !alert.resolved) ? 1 : 0);

/** A row of the notifications page as the page query returns it (notification-sql.ts). */
export interface PageRow {
  type: "alerts" | "first-check";
  grp: number | string;
  fleet_id: string;
  fleet_name: string;
  kind: string;
  at: number | string;
  top: number | string;
  count: number | string;
  unread: number | string;
  attention: number | string;
  total: number | string;
}

/** An alert of a group row, with its group and whether the user read it (boolean or 0/1). */
export interface GroupAlertRow extends AlertRow {
  grp: number | string;
  group_fleet: string;
  read: boolean | number;
}

const groupKey = (grp: number | string, fleetId: string, kind: string) =>
  `${Number(grp)} ${fleetId} ${kind}`;

/** A page's alert groups, as the group-alerts query takes them. */
export function pageGroups(rows: readonly PageRow[]) {
  const groups = rows.filter((row) => row.type === "alerts");
  const grps = groups.map((row) => Number(row.grp));
  return {
    any: groups.length > 0,
    runs: grps.filter((grp) => grp >= 0),
    ids: grps.filter((grp) => grp < 0).map((grp) => -grp),
    fleets: [...new Set(groups.map((row) => row.fleet_id))],
    kinds: [...new Set(groups.map((row) => row.kind))],
  };
}

/** The page's rows, each group row with its alerts (of `alerts`, the page's groups' newest). */
export function toNotificationRows(
  rows: readonly PageRow[],
  alerts: readonly GroupAlertRow[],
): NotificationRow[] {
  const byGroup = new Map<string, GroupAlertRow[]>();
  for (const alert of alerts) {
    const key = groupKey(alert.grp, alert.group_fleet, alert.kind);
    byGroup.set(key, [...(byGroup.get(key) ?? []), alert]);
  }
  return rows.map((row): NotificationRow => {
    const grp = Number(row.grp);
    if (row.type === "first-check")
      return {
        type: "first-check",
        baseline: {
          id: grp,
          fleetId: row.fleet_id,
          fleetName: row.fleet_name,
          runId: Number(row.top),
          at: Number(row.at),
          vehicles: Number(row.count),
          attention: Number(row.attention),
        },
        read: Number(row.unread) === 0,
      };
    return {
      type: "alerts",
      runId: grp < 0 ? null : grp,
      fleetId: row.fleet_id,
      fleetName: row.fleet_name,
      kind: row.kind as StoredAlert["kind"],
      at: Number(row.at),
      count: Number(row.count),
      unread: Number(row.unread),
      alerts: (
        byGroup.get(groupKey(row.grp, row.fleet_id, row.kind)) ?? []
      ).map((alert) => ({
        alert: toAlertRow(alert),
        read: Boolean(alert.read),
      })),
    };
  });
}

/** What markRead does for each kind of target, the same on both engines. */
export function onReadTarget<T>(
  target: ReadTarget,
  on: {
    matching(filter: Extract<ReadTarget, { matching: unknown }>["matching"]): T;
    alerts(ids: readonly number[]): T;
    group(group: Extract<ReadTarget, { group: unknown }>["group"]): T;
    firstCheck(id: number): T;
  },
): T {
  if ("matching" in target) return on.matching(target.matching);
  if ("alerts" in target) return on.alerts(target.alerts);
  if ("group" in target) return on.group(target.group);
  return on.firstCheck(target.firstCheck);
}
