// One export file from rows and their answers: the table of text (export-table.ts), written as
// CSV or as an Excel workbook. Wherever it runs (the export worker, or in-thread in tests), it
// reports how far it has got.
import type { FleetRow, VehicleResult } from "../fleet-types.ts";
import { exportSummary } from "./export-summary.ts";
import { exportColumnKind, exportHeader, exportRows } from "./export-table.ts";
import type { ExportFormat, ExportRunInfo } from "./export-protocol.ts";
import { CSV_MEDIA_TYPE, toCsv } from "@vics/shared";
import { toXlsx } from "./to-xlsx.ts";

/** Rows turned into cells between two progress reports. */
const BATCH_ROWS = 2_000;

export interface ExportFileInput {
  format: ExportFormat;
  run: ExportRunInfo;
  rows: readonly FleetRow[];
  results: ReadonlyMap<string, VehicleResult>;
  today: string;
}

/**
 * The file; `progress(fraction)` hears how much of the table is built (0 to 1). Writing the
 * file itself is one step of its library, so it reports nothing further until it is done.
 */
export async function buildExportFile(
  { format, run, rows, results, today }: ExportFileInput,
  progress: (fraction: number) => void,
): Promise<Blob> {
  const header = exportHeader(run, today);
  const table: string[][] = [header];
  for (let start = 0; start < rows.length; start += BATCH_ROWS) {
    const batch = rows.slice(start, start + BATCH_ROWS);
    table.push(...exportRows(batch, results, run, today));
    progress(Math.min(rows.length, start + BATCH_ROWS) / rows.length);
  }
  if (format === "csv")
    return new Blob([toCsv(table)], { type: CSV_MEDIA_TYPE });
  return toXlsx(table, {
    sheetName: "Fleet check",
    // The results' own columns: exportColumnKind knows each of their names.
    kinds: header.map(exportColumnKind),
    summary: exportSummary(rows, results, run, today),
  });
}
