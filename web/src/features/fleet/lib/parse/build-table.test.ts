import { describe, expect, it } from "vitest";
import type { SourceRow } from "../fleet-types.ts";
import { buildTable, firstRowIsHeader } from "./build-table.ts";

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
