// Title rows above a list's header, as people's files have them: a CSV title whose comma is not
// quoted splits into several cells, and is still a title (issue 34, point 5). Whatever the
// titles, none becomes a row of the list, and every row under the header stays one, a bad
// registration reported with its line rather than dropped.
import fc from "fast-check";
import { isValidRegistration } from "@vics/shared";
import { describe, expect, it } from "vitest";
import type { SourceTable } from "../fleet-types.ts";
import { guessRegistrationColumn } from "./detect-column.ts";
import { parseFile } from "./parse-file.ts";
import { prepareRows } from "./prepare-rows.ts";
import { textFile } from "./test-files.ts";
import { MAX_TITLE_ROWS } from "./title-rows.ts";

async function table(text: string): Promise<SourceTable> {
  const result = await parseFile("fleet.csv", textFile(text));
  if ("code" in result) throw new Error(`Expected a table: ${result.message}`);
  return result;
}

/** The list as the user's page shows it: its rows and which of them are invalid, by line. */
function prepared(result: SourceTable) {
  const column = guessRegistrationColumn(result);
  if (column === null) throw new Error("No registration column");
  const { rows } = prepareRows(result, column);
  return {
    lines: rows.map((row) => row.line),
    invalid: rows.filter((row) => row.invalid).map((row) => row.line),
  };
}

const PLATES = [
  "AB12CDE",
  "CD34EFG",
  "LP08SED",
  "UN51NSD",
  "A123BCD",
  "ABC123D",
];
const DRIVERS = ["Sam Taylor", "Jo Lee", "Kim Patel", "Max Reid"];

describe("a title row with an unquoted comma", () => {
  const data = Array.from(
    { length: 22 },
    (_, index) =>
      `${PLATES[index % PLATES.length]},${DRIVERS[index % DRIVERS.length]},F${index + 1}`,
  );

  it.each([
    ["then the header", ""],
    ["then a blank line, as a spreadsheet saves it", "\r\n"],
  ])("is a title, %s", async (_name, gap) => {
    const result = await table(
      `ACME Fleet, November list\r\n${gap}Registration,Driver,Fleet number\r\n${data.join("\r\n")}\r\n`,
    );
    const headerLine = gap ? 3 : 2;
    expect(result.skipped).toEqual([
      { line: 1, text: "ACME Fleet, November list" },
    ]);
    expect(result.header).toEqual(["Registration", "Driver", "Fleet number"]);
    const { lines, invalid } = prepared(result);
    expect(lines).toEqual(data.map((_, index) => headerLine + 1 + index));
    expect(invalid).toEqual([]);
  });

  it("keeps a header of other names, with no registration column named below it", async () => {
    const result = await table(
      "Fleet, Plates\r\nAB12CDE, Sam Taylor\r\nCD34EFG, Jo Lee\r\n",
    );
    expect(result.header).toEqual(["Fleet", "Plates"]);
    expect(result).not.toHaveProperty("skipped");
  });

  it("is not taken for a title when it holds a registration: the row is the list's", async () => {
    const result = await table(
      "AB12CDE, Sam Taylor\r\nRegistration,Driver\r\nCD34EFG,Jo Lee\r\n",
    );
    expect(result).not.toHaveProperty("skipped");
    expect(result.rows.map((row) => row.line)).toEqual([1, 2, 3]);
  });
});

// Words of a title: none a header name or anything like a registration.
const TITLE_WORD = fc.constantFrom(
  "ACME",
  "Fleet",
  "November",
  "list",
  "Haulage",
  "North",
  "depot",
  "vans",
  "Printed",
  "23/11/2026",
  "by",
  "Operations",
  "(draft)",
);
const titleCell = fc
  .array(TITLE_WORD, { minLength: 1, maxLength: 4 })
  .map((words) => words.join(" "));
/** One title line: its cells as an unquoted comma splits them, or a blank line. */
const titleLine = fc.oneof(
  fc.array(titleCell, { minLength: 1, maxLength: 4 }).map((cells) => cells),
  fc.constant([] as string[]),
);

const BAD_REGISTRATIONS = ["AB1O CDE", "TBC", "n/a", "", "AB12CDEFG"];
const dataRow = fc.record({
  registration: fc.oneof(
    fc.constantFrom(...PLATES),
    fc.constantFrom(...BAD_REGISTRATIONS),
  ),
  driver: fc.constantFrom(...DRIVERS),
  fleet: fc.integer({ min: 1, max: 9999 }).map((number) => `F${number}`),
});

const OTHER_COLUMNS = ["Driver", "Fleet number"];

describe("title rows, whatever they hold", () => {
  it("never become rows of the list, and every row under the header stays one, bad ones reported by line", async () => {
    expect(BAD_REGISTRATIONS.some(isValidRegistration)).toBe(false);
    await fc.assert(
      fc.asyncProperty(
        fc
          .array(titleLine, { minLength: 1, maxLength: MAX_TITLE_ROWS })
          // At least one title line is not blank: a file's blank lines alone are no title.
          .filter((lines) => lines.some((cells) => cells.length > 0)),
        fc.integer({ min: 0, max: OTHER_COLUMNS.length }),
        fc.array(dataRow, { minLength: 1, maxLength: 25 }),
        async (titles, at, rows) => {
          const header = [...OTHER_COLUMNS];
          header.splice(at, 0, "Registration");
          const cellsOf = (row: (typeof rows)[number]) => {
            const cells = [row.driver, row.fleet];
            cells.splice(at, 0, row.registration);
            return cells;
          };
          const lines = [
            ...titles.map((cells) => cells.join(",")),
            header.join(","),
            ...rows.map((row) => cellsOf(row).join(",")),
          ];
          const result = await table(`${lines.join("\r\n")}\r\n`);
          const headerLine = titles.length + 1;
          expect(result.header).toEqual(header);
          expect(result.skipped).toEqual(
            titles.flatMap((cells, index) =>
              cells.length > 0
                ? [{ line: index + 1, text: cells.join(", ") }]
                : [],
            ),
          );
          const shown = prepared(result);
          expect(shown.lines).toEqual(
            rows.map((_, index) => headerLine + 1 + index),
          );
          expect(shown.invalid).toEqual(
            rows.flatMap((row, index) =>
              isValidRegistration(row.registration)
                ? []
                : [headerLine + 1 + index],
            ),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
