// A watch run's row as both engines return it (numbers may come back as text from PostgreSQL).
import type { WatchRun } from "./watch-store.ts";

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
