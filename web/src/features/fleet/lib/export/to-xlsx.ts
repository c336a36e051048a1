// A table as an Excel workbook of one sheet, with write-excel-file's browser build. Every cell
// is a plain value, never a formula: a text cell reading "=1+1" stays that text. Whole numbers
// in the columns that hold them are numbers, so they sort and sum; the rest is text, so a
// fleet number like "007" keeps its zeros.
import writeXlsxFile, {
  type Cell,
  type SheetData,
} from "write-excel-file/browser";
import { NUMERIC_EXPORT_COLUMNS } from "./export-table.ts";

export const XLSX_MEDIA_TYPE =
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const NUMBER = /^-?\d{1,15}$/;

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

export interface XlsxOptions {
  /**
   * Positions of columns whose whole numbers are written as numbers. By default, those headed
   * with an export's numeric column names (Row, Days to expiry, Year).
   */
  numericColumns?: readonly number[];
}

/** `table[0]` is the header row: bold, and kept in view when scrolling. */
export async function toXlsx(
  table: readonly (readonly string[])[],
  sheetName: string,
  { numericColumns }: XlsxOptions = {},
): Promise<Blob> {
  const [header = [], ...body] = table;
  const numeric = new Set(
    numericColumns ??
      header.flatMap((name, index) =>
        NUMERIC_EXPORT_COLUMNS.includes(name) ? [index] : [],
      ),
  );
  const data: SheetData = [
    header.map((value): Cell => ({ value, type: String, fontWeight: "bold" })),
    ...body.map((row) =>
      row.map((value, column): Cell => {
        if (value === "") return null;
        if (numeric.has(column) && NUMBER.test(value))
          return { value: Number(value), type: Number };
        return { value, type: String };
      }),
    ),
  ];
  return writeXlsxFile(data, {
    sheet: safeSheetName(sheetName),
    stickyRowsCount: 1,
  }).toBlob();
}
