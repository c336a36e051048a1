// CSV, TSV and TXT with papaparse: the delimiter guessed among , ; tab |, quoted fields (with
// commas and line breaks inside), blank lines left out, and each row numbered by the line it
// starts on in the file, as a text editor shows it.
import Papa from "papaparse";
import type { ParseFailure, SourceRow } from "../fleet-types.ts";
import { isBlankRow, ROWS_TO_READ } from "./build-table.ts";
import { parseFailures } from "./parse-failures.ts";

const DELIMITERS = [",", ";", "\t", "|"];
/** Enough of the file to guess its delimiter from its first rows. */
const GUESS_CHARS = 64 * 1024;

function guessDelimiter(text: string): string {
  const { meta } = Papa.parse<string[]>(text.slice(0, GUESS_CHARS), {
    delimitersToGuess: DELIMITERS,
    skipEmptyLines: "greedy",
    newline: "\n",
    preview: 20,
  });
  return meta.delimiter;
}

function lineBreaks(cells: string[]): number {
  let count = 0;
  for (const cell of cells) {
    for (let index = cell.indexOf("\n"); index >= 0;) {
      count++;
      index = cell.indexOf("\n", index + 1);
    }
  }
  return count;
}

/** `tabs`: the file is a .tsv, so the delimiter is a tab whatever the first rows suggest. */
export function parseDelimited(
  text: string,
  tabs: boolean,
): SourceRow[] | ParseFailure {
  // One kind of line break, so a file mixing them (edited on two systems) still splits into
  // its lines, and quoted line breaks count as one line each.
  const normalised = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const rows: SourceRow[] = [];
  // Set inside papaparse's callback, so an object rather than a variable TypeScript narrows.
  const outcome: { failure?: ParseFailure } = {};
  let line = 1;
  Papa.parse<string[]>(normalised, {
    delimiter: tabs ? "\t" : guessDelimiter(normalised),
    newline: "\n",
    quoteChar: '"',
    // Blank lines are kept here and dropped below: every line must pass through to be counted.
    skipEmptyLines: false,
    step: ({ data, errors }, parser) => {
      const start = line;
      line += 1 + lineBreaks(data);
      // A stray quote makes papaparse read on to the next quote, merging lines into one cell:
      // refused, since rows would vanish without a word.
      if (
        errors.some(
          ({ code }) => code === "MissingQuotes" || code === "InvalidQuotes",
        )
      ) {
        outcome.failure = parseFailures.misquoted(start);
        parser.abort();
        return;
      }
      const cells = data.map((cell) => cell.trim());
      if (isBlankRow(cells)) return;
      rows.push({ line: start, cells });
      if (rows.length === ROWS_TO_READ) parser.abort();
    },
  });
  return outcome.failure ?? rows;
}
