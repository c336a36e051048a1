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

/**
 * How many rows at the top are titles: rows with a single cell filled, holding no
 * registration, above the first row that is wider or holds a registration header name (the
 * table's first row, header or data). None when no such row comes within the first few rows:
 * a list of one column has one cell per row, and its first row stays a header or data.
 */
export function titleRowCount(rows: readonly SourceRow[]): number {
  const limit = Math.min(rows.length, MAX_TITLE_ROWS + 1);
  for (let index = 0; index < limit; index++) {
    const cells = rows[index]?.cells ?? [];
    const filled = cells.filter((cell) => cell !== "");
    if (
      filled.length > 1 ||
      filled.some((cell) => registrationHeaderRank(cell) >= 0)
    )
      return index;
    if (filled.some(mayBeRegistration)) return 0;
  }
  return 0;
}

/** A title row's one filled cell. */
export function titleText(row: SourceRow): string {
  return row.cells.find((cell) => cell !== "") ?? "";
}
