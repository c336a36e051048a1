import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { exportHeader, exportRows } from "./export-table.ts";
import { RESULTS, ROWS, RUN, TODAY } from "./export-test-run.ts";
import { toCsv } from "@vics/shared";
import { liveFormulaCells } from "@vics/shared/testing/csv-formulas";

/** Read back as a spreadsheet would: BOM off, CRLF rows, quotes undone. */
function readBack(csv: string): string[][] {
  expect(csv.startsWith("\uFEFF")).toBe(true);
  const { data, errors } = Papa.parse<string[]>(csv.slice(1), {
    delimiter: ",",
    newline: "\r\n",
    skipEmptyLines: true,
  });
  expect(errors).toEqual([]);
  return data;
}

describe("toCsv", () => {
  it("writes CRLF rows after a UTF-8 BOM, quoting what needs it", () => {
    expect(
      toCsv([
        ["Registration", "Driver"],
        ["AB12CDE", 'Smith, "J"'],
        ["CD34EFG", "£5 café"],
      ]),
    ).toBe(
      '\uFEFFRegistration,Driver\r\nAB12CDE,"Smith, ""J"""\r\nCD34EFG,£5 café\r\n',
    );
  });

  it("round-trips the whole export, compliance included", () => {
    const run = { ...RUN, checkCompliance: true };
    const table = [
      exportHeader(run, TODAY),
      ...exportRows(ROWS, RESULTS, run, TODAY),
    ];
    const back = readBack(toCsv(table));
    // Cells that could run as formulas come back with their apostrophe; every other cell as it was.
    const neutralised = (cell: string) =>
      /^(?!-\d+$)[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
    expect(back).toEqual(table.map((row) => row.map(neutralised)));
    expect(back.flat()).toContain('\'=HYPERLINK("http://x")');
    expect(back.flat()).toContain("'@home");
  });

  it("leaves no live formula in the whole export, opened with commas or semicolons", () => {
    const run = { ...RUN, checkCompliance: true };
    const hostile = ROWS.map((fleetRow) => ({
      ...fleetRow,
      extra: ["x;=1+1", "\uFF1D1+1", "Leeds;-2+3"],
    }));
    const csv = toCsv([
      exportHeader(run, TODAY),
      ...exportRows(hostile, RESULTS, run, TODAY),
    ]);
    expect(liveFormulaCells(csv)).toEqual([]);
    expect(readBack(csv).flat()).toContain("x;'=1+1");
  });

  it.each<[string, string]>([
    ["=1+1", "'=1+1"],
    ['=HYPERLINK("http://evil","click")', `'=HYPERLINK("http://evil","click")`],
    ["+44 20 7946 0000", "'+44 20 7946 0000"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1:A2)", "'@SUM(A1:A2)"],
    ["\t=1+1", "'\t=1+1"],
    // A reader may start a row at the CR: what follows it is made safe too.
    ["\r=1+1", "'\r'=1+1"],
    // A plain negative number is a number, not a formula: days to expiry stays readable.
    ["-20", "-20"],
    ["-5", "-5"],
    ["AB12 CDE", "AB12 CDE"],
    ["a=b", "a=b"],
  ])("makes %j safe as %j", (cell, safe) => {
    expect(readBack(toCsv([[cell]]))).toEqual([[safe]]);
  });
});
