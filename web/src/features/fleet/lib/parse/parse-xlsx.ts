// XLSX with read-excel-file: every sheet by name, every cell as the text a person sees in it.
// The browser build: it reads an ArrayBuffer, and runs inside our own worker as it is.
import readXlsxFile, { InvalidInputError } from "read-excel-file/browser";
import { utcDate } from "@vics/shared";
import type { ParseFailure, SourceRow } from "../fleet-types.ts";
import { isBlankRow, ROWS_TO_READ } from "./build-table.ts";
import { parseFailures } from "./parse-failures.ts";
import { inspectZip } from "./zip-guard.ts";
import { inflatedSizeFailure } from "./zip-inflate-check.ts";

/** A cell as text: numbers as written, TRUE/FALSE as Excel shows them, dates as YYYY-MM-DD. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value.trim();
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? "" : utcDate(value);
  return String(value);
}

function readerFailure(error: unknown): ParseFailure {
  if (error instanceof InvalidInputError) {
    switch (error.code) {
      case "XLS_FILE_NOT_SUPPORTED":
        return parseFailures.oldExcel();
      case "NO_DATA":
        return parseFailures.emptyFile();
      case "FILE_NOT_SUPPORTED":
      case "INPUT_TYPE_NOT_SUPPORTED":
        return parseFailures.notASpreadsheet();
      case "INVALID_ZIP":
        return parseFailures.corruptWorkbook();
    }
  }
  // InvalidSpreadsheetError, a missing sheet, an unzip error: the workbook is damaged.
  return parseFailures.corruptWorkbook();
}

/** A sheet's non-blank rows, numbered as Excel numbers them. */
export interface WorkbookSheet {
  name: string;
  rows: SourceRow[];
}

function sheetRows(sheet: unknown[][]): SourceRow[] {
  const rows: SourceRow[] = [];
  for (const [index, values] of sheet.entries()) {
    const cells = values.map(cellText);
    if (isBlankRow(cells)) continue;
    // read-excel-file keeps blank rows above and between the data, so this is Excel's row number.
    rows.push({ line: index + 1, cells });
    if (rows.length === ROWS_TO_READ) break;
  }
  return rows;
}

export async function parseXlsx(
  bytes: ArrayBuffer,
): Promise<WorkbookSheet[] | ParseFailure> {
  const view = new Uint8Array(bytes);
  const entries = inspectZip(view);
  if ("code" in entries) return entries;
  if (!entries.some(({ name }) => name.startsWith("xl/")))
    return parseFailures.notAWorkbook();
  const bomb = await inflatedSizeFailure(view, entries);
  if (bomb) return bomb;
  // Every sheet at once: the fleet is not always on the first, and the zip guard above has
  // already bounded what they unpack to.
  let sheets: Array<{ sheet: string; data: unknown[][] }>;
  try {
    sheets = await readXlsxFile(bytes);
  } catch (error) {
    return readerFailure(error);
  }
  return sheets.map(({ sheet, data }) => ({
    name: sheet,
    rows: sheetRows(data),
  }));
}
