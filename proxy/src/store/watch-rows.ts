// Watch runs' and alerts' rows as both engines return them: PostgreSQL gives bigints as text
// and jsonb parsed, SQLite gives numbers and JSON as text.
import type { AlertKind } from "@vics/shared";
import type { StoredAlert, WatchRun } from "./watch-store.ts";

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
