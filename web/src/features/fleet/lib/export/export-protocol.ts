// What the page sends the export worker, and what it answers. The page sends the rows in
// chunks, so that no single copy of 50,000 rows blocks the page; the worker answers with
// progress, then the file (or that it could not make one).
import type { FleetRow, VehicleResult } from "../fleet-types.ts";
import type { ExportRun } from "./export-columns.ts";

export type ExportFormat = "csv" | "xlsx";

/** The run as an export needs it: its columns, its name and when it was run. */
export interface ExportRunInfo extends ExportRun {
  name: string;
  createdAt: string;
  /** Rows in the whole list: the file may hold only the rows the table showed. */
  listRows: number;
}

export type ExportRequest =
  | {
      kind: "start";
      format: ExportFormat;
      run: ExportRunInfo;
      /** The UK's date, YYYY-MM-DD, for the outcomes and the days to expiry. */
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
  | { kind: "end" };

export type ExportResponse =
  | { kind: "progress"; percent: number }
  | { kind: "done"; file: Blob }
  | { kind: "failed" };
