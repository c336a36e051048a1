// The fleet runs' IndexedDB schema. A run's rows (up to 100,000) live apart from its summary so
// that listing runs never loads them; results are keyed [runId, registration], so a later result
// for the same vehicle replaces the earlier one and a run's results are one key range.
import type { DBSchema, IDBPDatabase } from "idb";
import type { SavedRun, StoredDraft, VehicleResult } from "../fleet-types.ts";

/** Raise it, and add a step to upgradeRunSchema, whenever the stores or indexes change. */
export const RUN_SCHEMA_VERSION = 2;

export interface RunRecord extends Omit<SavedRun, "rows"> {
  rowCount: number;
}

export interface RowsRecord {
  runId: string;
  rows: SavedRun["rows"];
}

export interface ResultRecord extends VehicleResult {
  runId: string;
}

/** The list being prepared, before it becomes a run (one at a time, under the key "current"). */
export interface DraftRecord {
  id: "current";
  draft: StoredDraft;
}

export interface FleetRunsSchema extends DBSchema {
  runs: { key: string; value: RunRecord };
  rows: { key: string; value: RowsRecord };
  results: { key: [string, string]; value: ResultRecord };
  drafts: { key: string; value: DraftRecord };
}

export function upgradeRunSchema(
  db: IDBPDatabase<FleetRunsSchema>,
  oldVersion: number,
): void {
  if (oldVersion < 1) {
    db.createObjectStore("runs", { keyPath: "id" });
    db.createObjectStore("rows", { keyPath: "runId" });
    db.createObjectStore("results", { keyPath: ["runId", "registration"] });
  }
  if (oldVersion < 2) {
    // The list being prepared, so a reload during "Check your list" loses nothing.
    db.createObjectStore("drafts", { keyPath: "id" });
  }
}

/** Every result of one run: keys [runId, anything] (an array sorts after every string). */
export function runResultsRange(runId: string): IDBKeyRange {
  return IDBKeyRange.bound([runId], [runId, []]);
}
