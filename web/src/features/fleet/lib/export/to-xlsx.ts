// A table as an Excel workbook of one sheet, with write-excel-file's browser build: a bold
// header row kept in view, columns as wide as their content (within limits), and every cell
// typed by its column (xlsx-cells.ts). No cell is ever a formula.
import writeXlsxFile, {
  type Cell,
  type SheetData,
} from "write-excel-file/browser";
import { exportColumnKind } from "./export-columns.ts";
import { columnWidths, xlsxCell } from "./xlsx-cells.ts";

export const XLSX_MEDIA_TYPE =
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

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

/**
 * `table[0]` is the header row; each column's cells are written by the kind its name gives,
 * which is exact for an export's header.
 */
export async function toXlsx(
  table: readonly (readonly string[])[],
  sheetName: string,
): Promise<Blob> {
  const [header = [], ...body] = table;
  const kinds = header.map(exportColumnKind);
  const data: SheetData = [
    header.map((value): Cell => ({ value, type: String, fontWeight: "bold" })),
    ...body.map((row) =>
      row.map((text, column) => xlsxCell(text, kinds[column] ?? "text")),
    ),
  ];
  return writeXlsxFile(data, {
    sheet: safeSheetName(sheetName),
    stickyRowsCount: 1,
    columns: columnWidths(table),
  }).toBlob();
}
