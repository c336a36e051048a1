import { describe, expect, it } from "vitest";
import { FLEET_MAX_ROWS } from "../fleet-types.ts";
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
      "commas, semicolons and tabs on one line",
      "AB12CDE, CD34EFG;EF56GHI\tGH78IJK",
      [
        [1, "AB12CDE"],
        [1, "CD34EFG"],
        [1, "EF56GHI"],
        [1, "GH78IJK"],
      ],
    ],
    [
      "blank lines and items keep their line numbers",
      "\n  AB12 CDE  \n\n,,\nCD34EFG,\n",
      [
        [2, "AB12 CDE"],
        [5, "CD34EFG"],
      ],
    ],
    [
      "a row copied from a spreadsheet",
      "AB12CDE\tF001\tLeeds",
      [
        [1, "AB12CDE"],
        [1, "F001"],
        [1, "Leeds"],
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
});
