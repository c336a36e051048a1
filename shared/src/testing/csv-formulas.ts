// How a test reads a CSV as a spreadsheet in any locale might: split on commas (English) or
// on semicolons (much of Europe), whatever the writer meant.
import Papa from "papaparse";

/** What a spreadsheet would start a formula with, ASCII or full-width (as some locales type). */
const FORMULA_CHARACTER = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A plain negative number is read as a number, not run. */
const PLAIN_NEGATIVE = /^-\d+(\.\d+)?$/;

/** The cells of `csv` (BOM and all) read with `delimiter`, quotes undone where they pair up. */
export function csvCells(csv: string, delimiter: "," | ";"): string[] {
  const { data } = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ""), {
    delimiter,
    newline: "\r\n",
    skipEmptyLines: true,
  });
  return data.flat();
}

/**
 * The cells that would run as formulas when `csv` is opened with a comma or a semicolon as
 * the separator. A cell is looked at after any quotes and spaces a lenient reader drops, and
 * from each line end in it too (where quotes do not pair up, a reader starts a row there).
 */
export function liveFormulaCells(csv: string): string[] {
  return ([",", ";"] as const).flatMap((delimiter) =>
    csvCells(csv, delimiter)
      .flatMap((cell) => cell.split(/\r\n?|\n/))
      .filter((cell) => {
        const start = cell.replace(/^["\s]+/, "");
        return (
          !PLAIN_NEGATIVE.test(cell) &&
          (FORMULA_CHARACTER.test(cell) || FORMULA_CHARACTER.test(start))
        );
      }),
  );
}
