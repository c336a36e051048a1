// A table as an Excel workbook, with write-excel-file's browser build: the results sheet with a
// bold header row kept in view and filter buttons on it, columns as wide as their content
// (within limits), every cell typed by its column's kind, which the caller gives, as only it
// knows its columns (xlsx-cells.ts), the outcome coloured; then a Summary sheet of the counts.
// No cell is ever a formula.
import writeXlsxFile, {
  type Cell,
  type Sheet,
  type SheetData,
} from "write-excel-file/browser";
import type { ExportColumnKind } from "./export-columns.ts";
import type { SummaryLine } from "./export-summary.ts";
import { autoFilterFeature, type XlsxContent } from "./xlsx-autofilter.ts";
import { columnWidths, xlsxCell } from "./xlsx-cells.ts";

export const XLSX_MEDIA_TYPE =
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const SUMMARY_SHEET = "Summary";

/** Excel's rules for a sheet name: 1 to 31 characters, none of []:*?/\, no apostrophe at either end. */
export function safeSheetName(name: string): string {
  const safe = name
    .replace(/[[\]:*?/\\]/g, " ")
    .trim()
    .replace(/^'+|'+$/g, "")
    .slice(0, 31)
    .trim();
  return safe || "Results";
}

/** The summary's lines under a bold heading per group, a blank row between groups. */
function summarySheet(summary: readonly SummaryLine[]): Sheet<XlsxContent> {
  const data: SheetData = [];
  let group: string | undefined;
  for (const line of summary) {
    if (line.group !== group) {
      if (group !== undefined) data.push([null, null]);
      group = line.group;
      data.push([{ value: group, type: String, fontWeight: "bold" }, null]);
    }
    data.push([
      { value: line.label, type: String },
      typeof line.value === "number"
        ? { value: line.value, type: Number }
        : { value: line.value, type: String },
    ]);
  }
  return {
    data,
    sheet: SUMMARY_SHEET,
    columns: [{ width: 45 }, { width: 30 }],
  };
}

export interface XlsxOptions {
  sheetName: string;
  /** Each column's kind, in the header's order; a column without one is text. */
  kinds: readonly ExportColumnKind[];
  /** The counts for the Summary sheet; none, no Summary sheet. */
  summary?: readonly SummaryLine[];
}

/** `table[0]` is the header row; each column's cells are written by its kind in `kinds`. */
export async function toXlsx(
  table: readonly (readonly string[])[],
  { sheetName, kinds, summary }: XlsxOptions,
): Promise<Blob> {
  const [header = [], ...body] = table;
  const name = safeSheetName(
    sheetName === SUMMARY_SHEET ? "Results" : sheetName,
  );
  const results: Sheet<XlsxContent> = {
    data: [
      header.map((value): Cell => ({
        value,
        type: String,
        fontWeight: "bold",
      })),
      ...body.map((row) =>
        row.map((text, column) => xlsxCell(text, kinds[column] ?? "text")),
      ),
    ],
    sheet: name,
    stickyRowsCount: 1,
    columns: columnWidths(table),
  };
  const sheets = summary ? [results, summarySheet(summary)] : [results];
  return writeXlsxFile(sheets, {
    features: [autoFilterFeature(name, table.length, header.length)],
  }).toBlob();
}
