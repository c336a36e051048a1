// A table as CSV for Excel and friends (the fleet exports, the audit log's download): CRLF
// line ends, a UTF-8 BOM (without it Excel reads "£" and accents as Windows-1252), and no cell
// a spreadsheet would run as a formula.
import Papa from "papaparse";

/**
 * OWASP's CSV injection rule: a cell starting with =, +, -, @, tab or carriage return gets a
 * leading apostrophe, which spreadsheets show as text. A plain negative number ("-20" days to
 * expiry) is left as it is: a spreadsheet reads it as the number it is, and runs nothing.
 * "-2+3" is not a plain number, and is made safe.
 */
const FORMULA_START = /^(?!-\d+(\.\d+)?$)[=+\-@\t\r]/;

export const CSV_MEDIA_TYPE = "text/csv;charset=utf-8";

/** The byte-order mark a CSV for Excel starts with. */
export const CSV_BOM = "\uFEFF";

/** Rows as CSV lines, each ending CRLF, formula-safe; for a file written as it goes. */
export function csvLines(rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return "";
  const csv = Papa.unparse(
    rows.map((row) => [...row]),
    { newline: "\r\n", escapeFormulae: FORMULA_START },
  );
  return csv + "\r\n";
}

export function toCsv(table: readonly (readonly string[])[]): string {
  return CSV_BOM + csvLines(table);
}
