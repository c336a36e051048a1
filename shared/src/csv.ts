// A table as CSV for Excel and friends (the fleet exports, the audit log's download): CRLF
// line ends, a UTF-8 BOM (without it Excel reads "£" and accents as Windows-1252), and no cell
// a spreadsheet would run as a formula.
import Papa from "papaparse";

/**
 * OWASP's CSV injection rule, for every place a field can start: the cell's own start, and
 * after each comma, semicolon or line end in it, since Excel in much of Europe splits on
 * semicolons, and a comma file read that way splits inside its cells. Where a formula
 * character follows (=, +, -, @, tab, CR, or the full-width ＝ ＋ － ＠ some locales type), past
 * any quotes and spaces a lenient reader drops, an apostrophe goes in first, which spreadsheets
 * show as text. A plain negative number ("-20" days to expiry) is left as it is: a spreadsheet
 * reads it as the number it is, and runs nothing. "-2+3" is made safe.
 */
const LIVE_FIELD_START =
  /(?<=^|[,;\r\n])(?!-\d+(?:\.\d+)?(?:[,;\r\n]|$))(?=["\s]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])/g;

/** The cell with an apostrophe wherever a field of it could start a formula. */
const formulaSafe = (cell: string) => cell.replace(LIVE_FIELD_START, "'");

/**
 * Quoted besides what CSV needs: a cell with a semicolon, which a semicolon reader then keeps
 * whole, and one made safe, as papaparse's own escapeFormulae did.
 */
const quoted = (cell: string) => cell.startsWith("'") || cell.includes(";");

export const CSV_MEDIA_TYPE = "text/csv;charset=utf-8";

/** The byte-order mark a CSV for Excel starts with. */
export const CSV_BOM = "\uFEFF";

/** Rows as CSV lines, each ending CRLF, formula-safe; for a file written as it goes. */
export function csvLines(rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return "";
  const csv = Papa.unparse(
    rows.map((row) => row.map(formulaSafe)),
    { newline: "\r\n", quotes: quoted },
  );
  return csv + "\r\n";
}

export function toCsv(table: readonly (readonly string[])[]): string {
  return CSV_BOM + csvLines(table);
}
