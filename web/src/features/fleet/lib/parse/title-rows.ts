// Title rows above a list's header ("ACME Haulage fleet list, November" in A1, a blank row,
// then the header): not data and not the header. Found here so the header is the real one, and
// returned so the page can say what it skipped rather than drop it silently.
import { normaliseRegistration } from "@vics/shared";
import type { SourceRow } from "../fleet-types.ts";
import { registrationHeaderRank } from "./detect-column.ts";

/** Titles are looked for in this many rows at the top: a title block is a line or two. */
export const MAX_TITLE_ROWS = 5;

/** Short with a digit: a registration, typed right or wrong ("AB12CDEX"), so data, never a title. */
function mayBeRegistration(cell: string): boolean {
  const compacted = normaliseRegistration(cell);
  return (
    compacted.length <= 8 &&
    /^[A-Z0-9]+$/.test(compacted) &&
    /[0-9]/.test(compacted)
  );
}

/** The row names a registration column: a header, never a title. */
function namesRegistrationColumn(filled: readonly string[]): boolean {
  return filled.some((cell) => registrationHeaderRank(cell) >= 0);
}

/**
 * Where a title row split into cells ends (a CSV line "ACME Fleet, November list" whose comma
 * is not quoted): the row below the titles that names a registration column, when every row
 * from `start` to it looks like neither a header nor a vehicle (no header name, nothing like a
 * registration). Undefined when no such header follows: the row at `start` is then the
 * table's first row, a header of other names or data, as before.
 */
function namedHeaderBelow(
  rows: readonly SourceRow[],
  start: number,
  limit: number,
): number | undefined {
  for (let index = start; index < limit; index++) {
    const filled = (rows[index]?.cells ?? []).filter((cell) => cell !== "");
    if (namesRegistrationColumn(filled)) return index;
    if (filled.some(mayBeRegistration)) return undefined;
  }
  return undefined;
}

/**
 * How many rows at the top are titles: rows holding no registration and no header name, above
 * the table's first row (header or data). A title of one filled cell ends at the first row
 * that is wider or names a registration column; a title of several cells (a CSV title with an
 * unquoted comma) only at a row that names a registration column, so a list whose header has
 * other names keeps it. None when no such row comes within the first few rows: a list of one
 * column has one cell per row, and its first row stays a header or data.
 */
export function titleRowCount(rows: readonly SourceRow[]): number {
  const limit = Math.min(rows.length, MAX_TITLE_ROWS + 1);
  for (let index = 0; index < limit; index++) {
    const cells = rows[index]?.cells ?? [];
    const filled = cells.filter((cell) => cell !== "");
    if (namesRegistrationColumn(filled)) return index;
    if (filled.some(mayBeRegistration)) return 0;
    if (filled.length > 1) return namedHeaderBelow(rows, index, limit) ?? index;
  }
  return 0;
}

/** A title row's filled cells, as its line read before a comma split it: "ACME Fleet, November list". */
export function titleText(row: SourceRow): string {
  return row.cells.filter((cell) => cell !== "").join(", ");
}
