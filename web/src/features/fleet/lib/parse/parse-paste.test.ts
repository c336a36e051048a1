import { describe, expect, it } from "vitest";
import { FLEET_MAX_ROWS } from "../fleet-types.ts";
import { MAX_CELL_CHARS } from "./parse-failures.ts";
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
      "several on one line are rows 1, 2, 3... in order (the README's example)",
      "AB12CDE, UN51NSD; MT15EXP\tNW25CAR",
      [
        [1, "AB12CDE"],
        [2, "UN51NSD"],
        [3, "MT15EXP"],
        [4, "NW25CAR"],
      ],
    ],
    [
      "blank lines and empty items are not counted: row N is the N-th registration",
      "\n  AB12 CDE  \n\n,,\nCD34EFG,\n\n\nEF56GHI; GH78IJK\n",
      [
        [1, "AB12 CDE"],
        [2, "CD34EFG"],
        [3, "EF56GHI"],
        [4, "GH78IJK"],
      ],
    ],
    [
      "a row copied from a spreadsheet",
      "AB12CDE\tF001\tLeeds",
      [
        [1, "AB12CDE"],
        [2, "F001"],
        [3, "Leeds"],
      ],
    ],
  ])("%s", (_name, text, expected) => {
    expect(parsePaste(text)).toEqual({
      source: PASTE_SOURCE,
      header: null,
      columnCount: 1,
      rows: expected.map(([line, cell]) => ({ line, cells: [cell] })),
    });
  });

  it("gives every row its own number, however the items were laid out", () => {
    const table = parsePaste("AB12CDE,CD34EFG\n\nEF56GHI\tGH78IJK;IJ90KLM\n\n");
    if ("code" in table) throw new Error(table.message);
    const lines = table.rows.map((row) => row.line);
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines).toEqual([1, 2, 3, 4, 5]);
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
  it("fails an item longer than a spreadsheet cell, naming the item", () => {
    const long = "A".repeat(MAX_CELL_CHARS + 1);
    expect(parsePaste(`AB12CDE\nCD34EFG,${long}`)).toEqual({
      code: "not-a-spreadsheet",
      message:
        "Item 3 of the list is more than 32,767 characters long, so this is not a list of registrations. Paste one registration per line, or separated by commas.",
    });
    expect(parsePaste("A".repeat(MAX_CELL_CHARS))).toHaveProperty(
      "rows.length",
      1,
    );
  });
});
