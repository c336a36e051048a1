// A saved fleet's export file from its table of text (watched-export.ts): CSV with the results'
// own toCsv (a UTF-8 BOM, CRLF, no cell a spreadsheet would run as a formula), or an Excel
// workbook with the results' toXlsx (typed cells, a bold header kept in view, filter buttons,
// never a formula). Run in the watched-file worker, or in-thread where there is none.
import { CSV_MEDIA_TYPE, toCsv } from "@vics/shared";
import type { ExportFormat } from "./export-protocol.ts";
import { toXlsx } from "./to-xlsx.ts";

export interface WatchedFileRequest {
  format: ExportFormat;
  /** The header row, then one row per vehicle. */
  table: string[][];
  /** The Excel sheet's name: the fleet's. */
  sheetName: string;
}

export type WatchedFileResponse =
  { kind: "done"; file: Blob } | { kind: "failed" };

export async function buildWatchedFile({
  format,
  table,
  sheetName,
}: WatchedFileRequest): Promise<Blob> {
  if (format === "csv")
    return new Blob([toCsv(table)], { type: CSV_MEDIA_TYPE });
  return toXlsx(table, { sheetName });
}
