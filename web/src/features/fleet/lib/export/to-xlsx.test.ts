// The code writes with write-excel-file's browser build (a Blob, here jsdom's); the test
// reads the bytes back with read-excel-file's Node build, as a second program would.
import { inflateRawSync } from "node:zlib";
import readXlsxFile from "read-excel-file/node";
import { describe, expect, it } from "vitest";
import { inspectZip } from "../parse/zip-guard.ts";
import {
  exportHeader,
  exportRows,
  numericExportColumns,
} from "./export-table.ts";
import { EXTRA_COLUMNS, RESULTS, ROWS, TODAY } from "./export-test-run.ts";
import { safeSheetName, toXlsx } from "./to-xlsx.ts";

async function bytesOf(blob: Blob): Promise<Buffer> {
  return Buffer.from(await blob.arrayBuffer());
}

/** One file of the workbook (a zip), as text. */
function zipText(bytes: Buffer, name: string): string {
  const entries = inspectZip(new Uint8Array(bytes));
  if ("code" in entries) throw new Error(entries.message);
  const entry = entries.find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`No ${name}`);
  const start =
    entry.localOffset +
    30 +
    bytes.readUInt16LE(entry.localOffset + 26) +
    bytes.readUInt16LE(entry.localOffset + 28);
  const data = bytes.subarray(start, start + entry.compressedSize);
  return (entry.method === 8 ? inflateRawSync(data) : data).toString("utf8");
}

describe("toXlsx", () => {
  const run = { extraColumns: EXTRA_COLUMNS, checkCompliance: true };
  const table = [exportHeader(run), ...exportRows(ROWS, RESULTS, run, TODAY)];

  it("round-trips the export: numbers in the numeric columns, text everywhere else", async () => {
    // As the page calls it: the numeric columns found by their names.
    const blob = await toXlsx(table, "Fleet check");
    expect(blob.type).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    const [sheet] = await readXlsxFile(await bytesOf(blob));
    expect(sheet?.sheet).toBe("Fleet check");
    const numeric = new Set(numericExportColumns(run));
    const expected = table.map((row, index) =>
      row.map((cell, column) => {
        if (cell === "") return null;
        return index > 0 && numeric.has(column) ? Number(cell) : cell;
      }),
    );
    expect(sheet?.data).toEqual(expected);
    // Row 11's policy ended 20 days before: a negative number, not text.
    expect(sheet?.data.at(-1)?.[numericExportColumns(run)[1]!]).toBe(-20);
  });

  it("never writes a formula: formula-like text stays text", async () => {
    const bytes = await bytesOf(
      await toXlsx(
        [["Notes"], ['=HYPERLINK("http://evil","x")'], ["=1+1"], ["+44"]],
        "Fleet",
      ),
    );
    const sheetXml = zipText(bytes, "xl/worksheets/sheet1.xml");
    expect(sheetXml).not.toMatch(/<f[ >]/);
    const [sheet] = await readXlsxFile(bytes);
    expect(sheet?.data).toEqual([
      ["Notes"],
      ['=HYPERLINK("http://evil","x")'],
      ["=1+1"],
      ["+44"],
    ]);
  });

  it("keeps a number-like value as text outside the numeric columns", async () => {
    const bytes = await bytesOf(
      await toXlsx(
        [
          ["Row", "Fleet number"],
          ["2", "007"],
        ],
        "Fleet",
        { numericColumns: [0] },
      ),
    );
    const [sheet] = await readXlsxFile(bytes);
    expect(sheet?.data).toEqual([
      ["Row", "Fleet number"],
      [2, "007"],
    ]);
  });

  it("finds the numeric columns by name, leaving the user's own Year column as text", async () => {
    const bytes = await bytesOf(
      await toXlsx(
        [
          ["Row", "Year (your list)", "Year"],
          ["2", "1999", "2019"],
        ],
        "Fleet",
      ),
    );
    const [sheet] = await readXlsxFile(bytes);
    expect(sheet?.data.at(1)).toEqual([2, "1999", 2019]);
  });
});

describe("safeSheetName", () => {
  it.each([
    ["Fleet check", "Fleet check"],
    ["fleet/march [Q1]: *final?*", "fleet march  Q1    final"],
    ["'quoted'", "quoted"],
    [
      "A very long name for a sheet of results that Excel would refuse",
      "A very long name for a sheet of",
    ],
    ["///", "Results"],
  ])("%j -> %j", (name, safe) => {
    expect(safeSheetName(name)).toBe(safe);
  });
});
