// Totals and notes under a list ("Total;48", "Total vehicles: 48", "Notes: ..."): not vehicles,
// so not rows to fix. Found here, at the bottom only, and returned so the page can say what it
// left out, as it does for title rows above the header (title-rows.ts).
import { isValidRegistration } from "@vics/shared";
import type { SkippedRow, SourceRow } from "../fleet-types.ts";

/** Looked for in this many rows at the bottom: a totals line and a note or two. */
export const MAX_TRAILER_ROWS = 5;

/** The first filled cell starts with a word a spreadsheet puts under its list. */
const TRAILER_WORD =
  /^(?:(?:grand|sub)[\s-]?totals?|totals?|notes?|comments?|count|sum|number of (?:vehicles|rows))\b/i;

function isTrailer(cells: readonly string[]): boolean {
  const first = cells.find((cell) => cell !== "") ?? "";
  return (
    TRAILER_WORD.test(first) && !cells.some((cell) => isValidRegistration(cell))
  );
}

/** A left-out row's filled cells, as the user would read them. */
export function rowText(row: SourceRow): string {
  return row.cells.filter((cell) => cell !== "").join(" ");
}

/** How many rows at the bottom of `rows` are totals or notes (a vehicle below one ends it). */
export function trailerRowCount(rows: readonly SourceRow[]): number {
  let count = 0;
  while (count < Math.min(rows.length, MAX_TRAILER_ROWS)) {
    const row = rows[rows.length - 1 - count];
    if (!row || !isTrailer(row.cells)) break;
    count++;
  }
  return count;
}

export function trailerRows(rows: readonly SourceRow[]): SkippedRow[] {
  const count = trailerRowCount(rows);
  return rows
    .slice(rows.length - count)
    .map((row) => ({ line: row.line, text: rowText(row) }));
}
