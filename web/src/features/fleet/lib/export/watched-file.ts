// A saved fleet's export file from its vehicles: the table of text (watched-export.ts), built
// here in the export worker (or in-thread where there is none), then written as CSV with the
// results' own toCsv (a UTF-8 BOM, CRLF, no cell a spreadsheet would run as a formula), or as
// an Excel workbook with the results' toXlsx (the columns typed by this file's own kinds, a
// bold header kept in view, filter buttons, never a formula).
import { CSV_MEDIA_TYPE, toCsv } from "@vics/shared";
import type { WatchedEntry } from "../watched-view.ts";
import {
  watchedExportHeader,
  watchedExportKinds,
  watchedExportRows,
} from "../watched-export.ts";
import type { ExportFormat, WatchedFileInfo } from "./export-protocol.ts";
import { toXlsx } from "./to-xlsx.ts";

/** Vehicles turned into cells between two progress reports. */
const BATCH_ROWS = 2_000;

export interface WatchedFileInput {
  format: ExportFormat;
  fleet: WatchedFileInfo;
  /** The vehicles, in the file's order. */
  entries: readonly WatchedEntry[];
}

/** The file; `progress(fraction)` hears how much of the table is built (0 to 1). */
export async function buildWatchedFile(
  { format, fleet, entries }: WatchedFileInput,
  progress: (fraction: number) => void = () => {},
): Promise<Blob> {
  const { name, columns, since } = fleet;
  const table: string[][] = [watchedExportHeader(columns, since)];
  for (let start = 0; start < entries.length; start += BATCH_ROWS) {
    const batch = entries.slice(start, start + BATCH_ROWS);
    table.push(...watchedExportRows(batch, columns, since));
    progress(Math.min(entries.length, start + BATCH_ROWS) / entries.length);
  }
  if (format === "csv")
    return new Blob([toCsv(table)], { type: CSV_MEDIA_TYPE });
  return toXlsx(table, {
    sheetName: name,
    kinds: watchedExportKinds(columns, since),
  });
}
