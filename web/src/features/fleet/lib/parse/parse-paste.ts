// A pasted list: registrations one per line, or several on a line separated by commas,
// semicolons or tabs (a column or a row copied from a spreadsheet). Each item is one row,
// numbered 1, 2, 3... in the order pasted, blank lines and empty items skipped: "Row 3" is the
// third registration pasted, whatever line it was on, and no two rows share a number.
import {
  FLEET_MAX_ROWS,
  type ParseFailure,
  type SourceRow,
  type SourceTable,
} from "../fleet-types.ts";
import { MAX_CELL_CHARS, parseFailures } from "./parse-failures.ts";

export const PASTE_SOURCE = "Pasted list";

export function parsePaste(text: string): SourceTable | ParseFailure {
  if (text.trim() === "") return parseFailures.emptyPaste();
  const rows: SourceRow[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    for (const item of line.split(/[,;\t]/)) {
      const cell = item.trim();
      if (cell === "") continue;
      // Stop at the first row over the limit: the user needs to know, not a 1 GB array.
      if (rows.length === FLEET_MAX_ROWS)
        return parseFailures.tooManyRows("list");
      // A cell no spreadsheet could hold: not a registration, and no row to carry 10 MB.
      if (cell.length > MAX_CELL_CHARS)
        return parseFailures.pastedItemTooLong(rows.length + 1);
      rows.push({ line: rows.length + 1, cells: [cell] });
    }
  }
  if (rows.length === 0) return parseFailures.noPastedRegistrations();
  return { source: PASTE_SOURCE, header: null, rows, columnCount: 1 };
}
