// A pasted list: registrations one per line, or several on a line separated by commas,
// semicolons or tabs (a column or a row copied from a spreadsheet). Each item is one row,
// numbered by the line it was on, so an invalid one can be found in the paste.
import {
  FLEET_MAX_ROWS,
  type ParseFailure,
  type SourceRow,
  type SourceTable,
} from "../fleet-types.ts";
import { parseFailures } from "./parse-failures.ts";

export const PASTE_SOURCE = "Pasted list";

export function parsePaste(text: string): SourceTable | ParseFailure {
  if (text.trim() === "") return parseFailures.emptyPaste();
  const rows: SourceRow[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  for (const [index, line] of lines.entries()) {
    for (const item of line.split(/[,;\t]/)) {
      const cell = item.trim();
      if (cell === "") continue;
      // Stop at the first row over the limit: the user needs to know, not a 1 GB array.
      if (rows.length === FLEET_MAX_ROWS)
        return parseFailures.tooManyRows("list");
      rows.push({ line: index + 1, cells: [cell] });
    }
  }
  if (rows.length === 0) return parseFailures.noPastedRegistrations();
  return { source: PASTE_SOURCE, header: null, rows, columnCount: 1 };
}
