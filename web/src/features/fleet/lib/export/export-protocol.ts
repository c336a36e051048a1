// What the page sends the export worker, and what it answers. Two files go this way: the fleet
// check's results ("start", then "rows") and a saved fleet's status ("start-watched", then
// "entries"). The page sends the rows in chunks, so that no single copy of 50,000 rows blocks
// the page; the worker builds the table and answers with progress, then the file (or that it
// could not make one).
import type { FleetRow, VehicleResult } from "../fleet-types.ts";
import type { WatchedEntry } from "../watched-view.ts";
import type { ExportRun } from "./export-columns.ts";

export type ExportFormat = "csv" | "xlsx";

/** The run as an export needs it: its columns, its name and when it was run. */
export interface ExportRunInfo extends ExportRun {
  name: string;
  createdAt: string;
  /** Rows in the whole list: the file may hold only the rows the table showed. */
  listRows: number;
}

/** A saved fleet as its export needs it: its name, the team's columns, "changed since". */
export interface WatchedFileInfo {
  /** The fleet's name: the Excel sheet's. */
  name: string;
  columns: readonly string[];
  /** "Changed since" (YYYY-MM-DD): the file says what moved. */
  since?: string;
}

export type ExportRequest =
  | {
      kind: "start";
      format: ExportFormat;
      run: ExportRunInfo;
      /** The UK's date, YYYY-MM-DD, for the outcomes and what falls due within 30 days. */
      today: string;
      /** Rows the page will send before "end". */
      total: number;
    }
  | {
      kind: "rows";
      rows: FleetRow[];
      /** The answers for these rows' registrations. */
      results: (readonly [string, VehicleResult])[];
    }
  | {
      kind: "start-watched";
      format: ExportFormat;
      fleet: WatchedFileInfo;
      /** Vehicles the page will send before "end". */
      total: number;
    }
  | { kind: "entries"; entries: WatchedEntry[] }
  | { kind: "end" };

export type ExportResponse =
  | { kind: "progress"; percent: number }
  | { kind: "done"; file: Blob }
  | { kind: "failed" };
