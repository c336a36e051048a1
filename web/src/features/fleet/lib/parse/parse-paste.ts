// A pasted list: registrations one per line, several on a line separated by commas, semicolons
// or tabs (a column or a row copied from a spreadsheet), or a list as written in an email
// (read-pasted-line.ts). Each row is numbered by its line in the paste, so "Row 14" is the
// 14th line of what the user pasted; a line holding no registration is kept whole as a row to
// fix or exclude, never dropped. Lines that were more than one registration alone say what was
// taken from them, so nothing read from a paste is a surprise.
import { isValidRegistration } from "@vics/shared";
import {
  FLEET_MAX_ROWS,
  type ParseFailure,
  type PastedLine,
  type SourceRow,
  type SourceTable,
} from "../fleet-types.ts";
import { MAX_CELL_CHARS, parseFailures } from "./parse-failures.ts";
import { readPastedLine } from "./read-pasted-line.ts";

export const PASTE_SOURCE = "Pasted list";

/** Enough of a line to recognise it by in the review. */
const SHOWN_CHARS = 200;

/** A line longer than a cell with no break in it: not a list. */
function unbroken(line: string): boolean {
  return line.split(/[\s,;/|&+]/).some((part) => part.length > MAX_CELL_CHARS);
}

export function parsePaste(text: string): SourceTable | ParseFailure {
  if (text.trim() === "") return parseFailures.emptyPaste();
  const rows: SourceRow[] = [];
  const pasted: PastedLine[] = [];
  for (const [index, line] of text.split(/\r\n|\r|\n/).entries()) {
    // Blank, or separators only: nothing to read and nothing to fix.
    if (!/[\p{L}\p{N}]/u.test(line)) continue;
    const number = index + 1;
    if (unbroken(line)) return parseFailures.pastedItemTooLong(number);
    const trimmed = line.trim();
    // The usual list, one registration a line: read at once, and nothing to tell.
    // A bullet's dash would pass as a plate's hyphen: only a line that starts with one.
    const { taken, whole } =
      /^[A-Za-z0-9]/.test(trimmed) && isValidRegistration(trimmed)
        ? { taken: [trimmed], whole: trimmed }
        : readPastedLine(trimmed);
    // A line with no plate becomes a row to fix: one longer than a cell is no list at all.
    if (taken.length === 0 && whole.length > MAX_CELL_CHARS)
      return parseFailures.pastedLineTooLong(number);
    const cells = taken.length > 0 ? taken : [whole];
    if (taken.length !== 1 || taken[0] !== trimmed)
      pasted.push({
        line: number,
        text: trimmed.slice(0, SHOWN_CHARS),
        taken,
      });
    for (const cell of cells) {
      // Stop at the first row over the limit: the user needs to know, not a 1 GB array.
      if (rows.length === FLEET_MAX_ROWS)
        return parseFailures.tooManyRows("list");
      rows.push({ line: number, cells: [cell] });
    }
  }
  if (rows.length === 0) return parseFailures.noPastedRegistrations();
  const table: SourceTable = {
    source: PASTE_SOURCE,
    header: null,
    rows,
    columnCount: 1,
  };
  if (pasted.length > 0) table.pasted = pasted;
  return table;
}
