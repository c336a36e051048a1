import { isValidRegistration } from "@vics/shared";
import { describe, expect, it } from "vitest";
import { FLEET_MAX_ROWS } from "../fleet-types.ts";
import { MAX_CELL_CHARS } from "./parse-failures.ts";
import {
  EMAIL_LINES_WITHOUT_PLATES,
  EMAIL_PASTE,
  EMAIL_PLATES,
} from "@vics/shared/testing/email-paste";
import { parsePaste, PASTE_SOURCE } from "./parse-paste.ts";

describe("parsePaste", () => {
  it.each<[string, string, Array<[number, string]>]>([
    [
      "one per line",
      "AB12CDE\nCD34EFG",
      [
        [1, "AB12CDE"],
        [2, "CD34EFG"],
      ],
    ],
    [
      "CRLF",
      "AB12CDE\r\nCD34EFG\r\n",
      [
        [1, "AB12CDE"],
        [2, "CD34EFG"],
      ],
    ],
    [
      "old Mac CR",
      "AB12CDE\rCD34EFG",
      [
        [1, "AB12CDE"],
        [2, "CD34EFG"],
      ],
    ],
    [
      "several on one line are rows of that line, in order (the README's example)",
      "AB12CDE, UN51NSD; MT15EXP\tNW25CAR",
      [
        [1, "AB12CDE"],
        [1, "UN51NSD"],
        [1, "MT15EXP"],
        [1, "NW25CAR"],
      ],
    ],
    [
      "blank lines and empty items are skipped: a row's number is its line in the paste",
      "\n  AB12 CDE  \n\n,,\nCD34EFG,\n\n\nEF56GHI; GH78IJK\n",
      [
        [2, "AB12 CDE"],
        [5, "CD34EFG"],
        [8, "EF56GHI"],
        [8, "GH78IJK"],
      ],
    ],
    [
      "a row copied from a spreadsheet: its registrations, not its words",
      "AB12CDE\tF001\tLeeds",
      [
        [1, "AB12CDE"],
        [1, "F001"],
      ],
    ],
    [
      "a mistyped item in a list stays, to be fixed",
      "AB12CDE, AB12CD!, UN51NSD",
      [
        [1, "AB12CDE"],
        [1, "AB12CD!"],
        [1, "UN51NSD"],
      ],
    ],
    [
      "a line with no registration is kept, to be fixed or excluded",
      "Hi Sam,\nAB12CDE\nAB12 CDEX – in for repair",
      [
        [1, "Hi Sam,"],
        [2, "AB12CDE"],
        [3, "AB12 CDEX"],
      ],
    ],
  ])("%s", (_name, text, expected) => {
    expect(parsePaste(text)).toMatchObject({
      source: PASTE_SOURCE,
      header: null,
      columnCount: 1,
      rows: expected.map(([line, cell]) => ({ line, cells: [cell] })),
    });
  });

  it("finds every registration in an email, and loses none of its lines", () => {
    const table = parsePaste(EMAIL_PASTE);
    if ("code" in table) throw new Error(table.message);
    const rows = table.rows.map(({ line, cells }): [number, string] => [
      line,
      cells[0] ?? "",
    ]);
    const valid = rows.filter(([, cell]) => isValidRegistration(cell));
    expect(valid).toEqual(EMAIL_PLATES);
    expect(rows.filter((row) => !valid.includes(row))).toEqual(
      EMAIL_LINES_WITHOUT_PLATES,
    );
  });

  it("says what it took from each line that was more than a registration", () => {
    const table = parsePaste(
      "AB12CDE\n1. FR12JRE / VW68DKF\nReg: SW71 UWJ (Transit, Leeds)\nThanks,",
    );
    expect(table).toHaveProperty("pasted", [
      { line: 2, text: "1. FR12JRE / VW68DKF", taken: ["FR12JRE", "VW68DKF"] },
      { line: 3, text: "Reg: SW71 UWJ (Transit, Leeds)", taken: ["SW71 UWJ"] },
      { line: 4, text: "Thanks,", taken: [] },
    ]);
    expect(parsePaste("AB12CDE\nUN51 NSD")).not.toHaveProperty("pasted");
  });

  it.each([
    ["nothing", "", "empty"],
    ["only white space", " \n\t\r\n ", "empty"],
    ["only separators", ",;\n , ;", "no-rows"],
  ])("%s is a failure (%s)", (_name, text, code) => {
    const result = parsePaste(text);
    expect(result).toMatchObject({ code });
    expect(result).toHaveProperty("message", expect.stringMatching(/Paste/));
  });

  it("takes exactly the limit, and fails one over it naming the limit", () => {
    const full = Array.from({ length: FLEET_MAX_ROWS }, () => "AB12CDE");
    const table = parsePaste(full.join("\n"));
    expect(table).toHaveProperty("rows.length", FLEET_MAX_ROWS);

    const over = parsePaste([...full, "AB12CDE"].join(","));
    expect(over).toEqual({
      code: "too-many-rows",
      message:
        "This list has more than 100,000 rows. Split it into lists of up to 100,000 rows.",
    });
  });

  // Found by parse.fuzz.test.ts: a 10 MB line was one row holding all of it.
  it("fails an item longer than a spreadsheet cell, naming its line", () => {
    const long = "A".repeat(MAX_CELL_CHARS + 1);
    expect(parsePaste(`AB12CDE\nCD34EFG,${long}`)).toEqual({
      code: "not-a-spreadsheet",
      message:
        "Line 2 of the list has more than 32,767 characters without a break, so this is not a list of registrations. Paste one registration per line, or separated by commas.",
    });
    expect(parsePaste("A".repeat(MAX_CELL_CHARS))).toHaveProperty(
      "rows.length",
      1,
    );
  });

  // Found by the paste property (seed 486087553): breaks in it, so no part is over the limit,
  // but no plate either, so the whole line would have become one cell over a cell's limit.
  it("fails a line longer than a cell that holds no registration, naming its line", () => {
    const line = `${"A".repeat(20_000)};${"/".repeat(20_000)},`;
    expect(parsePaste(`AB12CDE\n${line}`)).toEqual({
      code: "not-a-spreadsheet",
      message:
        "Line 2 of the list has more than 32,767 characters and no registration in it, so this is not a list of registrations. Paste one registration per line, or separated by commas.",
    });
  });
});
