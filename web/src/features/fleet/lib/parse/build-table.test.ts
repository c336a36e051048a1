import { describe, expect, it } from "vitest";
import { FLEET_MAX_ROWS, type SourceRow } from "../fleet-types.ts";
import { buildTable, firstRowIsHeader, ROWS_TO_READ } from "./build-table.ts";
import { MAX_TITLE_ROWS } from "./title-rows.ts";

const rowsOf = (...rows: string[][]): SourceRow[] =>
  rows.map((cells, index) => ({ line: index + 1, cells }));

describe("firstRowIsHeader", () => {
  it.each<[string, string[][], boolean]>([
    [
      "a registration header name",
      [
        ["Reg", "Depot"],
        ["AB12CDE", "Leeds"],
      ],
      true,
    ],
    ["a header name with no rows below", [["Registration"]], true],
    [
      "words above a registration column",
      [
        ["Plates", "Where"],
        ["AB12CDE", "Leeds"],
      ],
      true,
    ],
    [
      "a valid registration in row 1",
      [
        ["AB12CDE", "Depot"],
        ["CD34EFG", "Leeds"],
      ],
      false,
    ],
    [
      "a mistyped registration (digits) above registrations",
      [["AB12CDF0"], ["AB12CDE"]],
      false,
    ],
    [
      "a blank cell above the registrations",
      [
        ["", "Depot"],
        ["AB12CDE", "Leeds"],
      ],
      false,
    ],
    [
      "nothing below looks like a registration",
      [["Name"], ["Sam"], ["Jo"]],
      false,
    ],
    ["one row of data", [["AB12CDE", "F1"]], false],
  ])("%s: %s", (_name, rows, expected) => {
    const [first, ...below] = rowsOf(...rows);
    expect(firstRowIsHeader(first!, below, 2)).toBe(expected);
  });
});

describe("buildTable", () => {
  it("keeps the header's cells to the table's width and numbers rows as given", () => {
    expect(
      buildTable(
        "f.csv",
        rowsOf(
          ["Registration", "Depot", ""],
          ["AB12CDE"],
          ["CD34EFG", "York", "", ""],
        ),
      ),
    ).toEqual({
      source: "f.csv",
      header: ["Registration", "Depot"],
      rows: [
        { line: 2, cells: ["AB12CDE"] },
        { line: 3, cells: ["CD34EFG", "York"] },
      ],
      columnCount: 2,
    });
  });

  it("skips title rows above the real header, and returns them with their lines", () => {
    const rows: SourceRow[] = [
      { line: 1, cells: ["ACME Haulage fleet list, November", "", "", ""] },
      { line: 3, cells: ["Fleet number", "Driver", "VRM", "Depot"] },
      { line: 4, cells: ["F1", "Sam", "AB12CDE", "Leeds"] },
      { line: 5, cells: ["F2", "Jo", "CD34EFG", "York"] },
    ];
    expect(buildTable("f.csv", rows)).toEqual({
      source: "f.csv",
      header: ["Fleet number", "Driver", "VRM", "Depot"],
      rows: rows.slice(2),
      columnCount: 4,
      skipped: [{ line: 1, text: "ACME Haulage fleet list, November" }],
    });
  });

  it.each<[string, string[][], string[] | null, number]>([
    [
      "two title lines above a header of words",
      [
        ["ACME Haulage"],
        ["", "Printed 23 November 2026"],
        ["Fleet", "Plates"],
        ["F1", "AB12CDE"],
      ],
      ["Fleet", "Plates"],
      2,
    ],
    [
      "a title above a header holding only the registration name",
      [["Our vans"], ["Registration", ""], ["AB12CDE", "Leeds"]],
      ["Registration", ""],
      1,
    ],
    [
      "a list of one column: its first row is the header, not a title",
      [["Our vans"], ["AB12CDE"], ["CD34EFG"]],
      ["Our vans"],
      0,
    ],
    [
      "a first data row with one cell filled, above more data, is data",
      [
        ["", "Leeds"],
        ["AB12CDE", "York"],
        ["CD34EFG", "Hull"],
      ],
      null,
      0,
    ],
    [
      "a mistyped registration alone in row 1 is data, not a title",
      [
        ["AB12CDEX", ""],
        ["Registration", "Depot"],
        ["AB12CDE", "Leeds"],
      ],
      null,
      0,
    ],
    [
      "more title rows than are looked for: none taken",
      [
        ["Title A"],
        ["Title B"],
        ["Title C"],
        ["Title D"],
        ["Title E"],
        ["Title F"],
        ["Registration", "Depot"],
        ["AB12CDE", "Leeds"],
      ],
      null,
      0,
    ],
  ])("%s", (_name, cells, header, titles) => {
    const table = buildTable("f.csv", rowsOf(...cells));
    expect(table).toHaveProperty("header", header);
    if (titles === 0) expect(table).not.toHaveProperty("skipped");
    else
      expect(table).toHaveProperty(
        "skipped",
        cells.slice(0, titles).map((row, index) => ({
          line: index + 1,
          text: row.find((cell) => cell !== ""),
        })),
      );
  });

  it("refuses a list over the limit however many title rows it has", () => {
    const rows = rowsOf(
      ...Array.from({ length: MAX_TITLE_ROWS }, () => ["ACME Haulage"]),
      ["Registration", "Depot"],
      ...Array.from({ length: FLEET_MAX_ROWS + 1 }, () => ["AB12CDE", "Leeds"]),
    );
    expect(rows).toHaveLength(ROWS_TO_READ);
    expect(buildTable("f.csv", rows)).toMatchObject({ code: "too-many-rows" });
    const full = buildTable("f.csv", rows.slice(0, -1));
    expect(full).toHaveProperty("rows.length", FLEET_MAX_ROWS);
    expect(full).toHaveProperty("skipped.length", MAX_TITLE_ROWS);
  });

  it.each<[string, SourceRow[], string, RegExp]>([
    ["no rows", [], "empty", /empty/],
    [
      "a header alone",
      rowsOf(["Registration"]),
      "no-rows",
      /header row but no vehicles/,
    ],
    [
      "too many columns",
      rowsOf(Array.from({ length: 501 }, (_, index) => `c${index}`)),
      "not-a-spreadsheet",
      /more than 500 columns/,
    ],
    [
      "a giant cell",
      rowsOf(["AB12CDE"], ["x".repeat(40_000)]),
      "not-a-spreadsheet",
      /Row 2 has a cell of more than 32,767 characters/,
    ],
  ])("fails on %s", (_name, rows, code, message) => {
    expect(buildTable("f.csv", rows)).toMatchObject({
      code,
      message: expect.stringMatching(message),
    });
  });
});
