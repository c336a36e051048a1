// From a file's non-blank rows to a SourceTable: are there title rows above the table, is its
// first row a header, are there totals or notes under it, how wide is it, and is it within the
// limits. Shared by the CSV and XLSX
// readers so both decide alike.
import { isValidRegistration } from "@vics/shared";
import {
  FLEET_MAX_ROWS,
  type ParseFailure,
  type SourceRow,
  type SourceTable,
} from "../fleet-types.ts";
import {
  registrationColumnByValues,
  registrationHeaderRank,
} from "./detect-column.ts";
import {
  MAX_CELL_CHARS,
  MAX_COLUMNS,
  parseFailures,
} from "./parse-failures.ts";
import { MAX_TITLE_ROWS, titleRowCount, titleText } from "./title-rows.ts";
import { trailerRowCount, trailerRows } from "./trailer-rows.ts";

/**
 * Readers keep this many non-blank rows and stop: title rows, a header, the limit, and one row
 * over it, so a list over the limit is refused however many titles it has.
 */
export const ROWS_TO_READ = MAX_TITLE_ROWS + FLEET_MAX_ROWS + 2;

/** A row with every cell blank says nothing; it is left out, as the contract of SourceTable says. */
export function isBlankRow(cells: readonly string[]): boolean {
  return cells.every((cell) => cell === "");
}

/**
 * Row 1 is a header when a cell is named like a registration column, or when it has no valid
 * registration while a column below holds registrations and row 1's cell there is a word (no
 * digits): "AB12 CDF0" above registrations is a mistyped vehicle, not a title, and stays data.
 */
export function firstRowIsHeader(
  first: SourceRow,
  below: SourceRow[],
  columnCount: number,
): boolean {
  if (first.cells.some((cell) => registrationHeaderRank(cell) >= 0))
    return true;
  if (first.cells.some((cell) => isValidRegistration(cell))) return false;
  const column = registrationColumnByValues(below, columnCount);
  if (column === null) return false;
  const cell = first.cells[column] ?? "";
  return cell !== "" && !/[0-9]/.test(cell);
}

/** The widest row, not counting cells that are blank to the end of every row. */
function usedWidth(rows: SourceRow[]): number {
  let width = 0;
  for (const { cells } of rows) {
    for (let index = cells.length - 1; index >= width; index--) {
      if (cells[index] !== "") {
        width = index + 1;
        break;
      }
    }
  }
  return width;
}

/**
 * Where the table starts: after the title rows above it, when the row after them is a header.
 * Titles are only ever above a header, so a data row of one filled cell is never taken for one.
 */
function titlesAbove(rows: SourceRow[]): number {
  const titles = titleRowCount(rows);
  if (titles === 0) return 0;
  const table = rows.slice(titles);
  const [first, ...below] = table;
  return first && firstRowIsHeader(first, below, usedWidth(table)) ? titles : 0;
}

/** `rows`: the file's non-blank rows, cells trimmed, at most ROWS_TO_READ of them. */
export function buildTable(
  source: string,
  rows: SourceRow[],
): SourceTable | ParseFailure {
  const titles = titlesAbove(rows);
  const table = titles > 0 ? rows.slice(titles) : rows;
  const [first, ...below] = table;
  if (!first) return parseFailures.emptyFile();
  const columnCount = usedWidth(table);
  if (columnCount > MAX_COLUMNS) return parseFailures.tooManyColumns();
  for (const { line, cells } of rows) {
    if (cells.some((cell) => cell.length > MAX_CELL_CHARS))
      return parseFailures.cellTooLong(line);
  }
  const trim = (row: SourceRow): SourceRow =>
    row.cells.length > columnCount
      ? { line: row.line, cells: row.cells.slice(0, columnCount) }
      : row;
  const hasHeader = titles > 0 || firstRowIsHeader(first, below, columnCount);
  const listed = hasHeader ? below : table;
  const trailers = trailerRowCount(listed);
  const data = listed.slice(0, listed.length - trailers).map(trim);
  if (data.length === 0) return parseFailures.headerOnly();
  if (data.length > FLEET_MAX_ROWS) return parseFailures.tooManyRows("file");
  const header = hasHeader
    ? Array.from(
        { length: columnCount },
        (_, index) => first.cells[index] ?? "",
      )
    : null;
  const built: SourceTable = { source, header, rows: data, columnCount };
  if (titles > 0)
    built.skipped = rows
      .slice(0, titles)
      .map((row) => ({ line: row.line, text: titleText(row) }));
  if (trailers > 0) built.skippedBelow = trailerRows(listed);
  return built;
}
