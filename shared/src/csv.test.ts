import { describe, expect, it } from "vitest";
import { csvCells, liveFormulaCells } from "./testing/csv-formulas.ts";
import { toCsv } from "./csv.ts";

/** Cells a person could type into a fleet list, a name or an audited field. */
const HOSTILE = [
  "=1+1",
  "x;=1+1",
  "x,=1+1",
  "x;+1",
  "a;b;@SUM(A1)",
  "\uFF1D1+1",
  "x;\uFF1D1+1",
  "\uFF0B1",
  "\uFF0D1+1",
  "\uFF20SUM(A1)",
  'x;"=1+1"',
  "x; =1+1",
  " =1+1",
  '"=1+1',
  "x;-2+3",
  "x;\t=1",
  "a\n=1+1",
  "\r=1+1",
  "\n-1+1",
  "a\r\n@SUM(A1)",
];

describe("toCsv under either separator", () => {
  it("leaves no cell a spreadsheet would run, read with commas or with semicolons", () => {
    const table = [
      ["Registration", "Driver", "Depot"],
      ...HOSTILE.map((cell) => ["AB12CDE", cell, "Leeds;North"]),
      ...HOSTILE.map((cell) => [cell, "Sam", "x"]),
    ];
    const csv = toCsv(table);
    expect(liveFormulaCells(csv)).toEqual([]);
  });

  it.each<[string, string]>([
    ["x;=1+1", "x;'=1+1"],
    ["x,=1+1", "x,'=1+1"],
    ["\uFF1D1+1", "'\uFF1D1+1"],
    ["x;\uFF20SUM(A1)", "x;'\uFF20SUM(A1)"],
    ['x;"=1+1"', `x;'"=1+1"`],
    // A number after a separator is a number, and a separator alone is text.
    ["x;-20", "x;-20"],
    ["Leeds;North", "Leeds;North"],
    ["a\n=1", "a\n'=1"],
    ["a=b;c", "a=b;c"],
  ])("reads %j back as %j with commas", (cell, safe) => {
    expect(csvCells(toCsv([[cell]]), ",")).toEqual([safe]);
  });

  it("quotes a cell with a semicolon, so a semicolon reader keeps it whole", () => {
    expect(toCsv([["Leeds;North"]])).toBe('\uFEFF"Leeds;North"\r\n');
    expect(csvCells(toCsv([["x;=1+1"]]), ";")).toEqual(["x;'=1+1"]);
  });
});
