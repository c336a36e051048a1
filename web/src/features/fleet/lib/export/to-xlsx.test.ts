// The code writes with write-excel-file's browser build (a Blob, here jsdom's); the test
// reads the bytes back with read-excel-file's Node build, as a second program would.
import { inflateRawSync } from "node:zlib";
import readXlsxFile from "read-excel-file/node";
import { describe, expect, it } from "vitest";
import { inspectZip } from "../parse/zip-guard.ts";
import { exportHeader, exportRows } from "./export-table.ts";
import { RESULTS, ROWS, RUN, TODAY } from "./export-test-run.ts";
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

async function sheetOf(table: string[][]) {
  const bytes = await bytesOf(await toXlsx(table, "Fleet check"));
  const [sheet] = await readXlsxFile(bytes);
  return { bytes, data: sheet?.data ?? [], name: sheet?.sheet };
}

const utcDate = (iso: string) => new Date(`${iso}T00:00:00.000Z`);

describe("toXlsx", () => {
  const run = { ...RUN, checkCompliance: true };
  const header = exportHeader(run);
  const table = [header, ...exportRows(ROWS, RESULTS, run, TODAY)];
  const column = (name: string) => header.indexOf(name);

  it("round-trips the export losslessly: every typed cell reads back as the text it came from", async () => {
    const blob = await toXlsx(table, "Fleet check");
    expect(blob.type).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    const [sheet] = await readXlsxFile(await bytesOf(blob));
    expect(sheet?.sheet).toBe("Fleet check");
    const asText = (value: unknown) =>
      value === null
        ? ""
        : value instanceof Date
          ? value.toISOString().slice(0, 10)
          : String(value);
    expect(sheet?.data.map((row) => row.map(asText))).toEqual(table);
  });

  it("writes our numbers as numbers and our dates as Excel dates", async () => {
    const { data } = await sheetOf(table);
    const [, insured] = data;
    expect(insured?.[column("Row")]).toBe(2);
    expect(insured?.[column("Valid from")]).toEqual(utcDate("2026-01-01"));
    expect(insured?.[column("Valid to")]).toEqual(utcDate("2027-06-30"));
    expect(insured?.[column("Days to expiry")]).toBe(219);
    expect(insured?.[column("Year")]).toBe(2019);
    // Row 11's policy ended 20 days before: a negative number, not text.
    expect(data.at(-2)?.[column("Days to expiry")]).toBe(-20);
    // Ours that look like numbers or dates but are not of those columns stay text.
    expect(insured?.[column("Registration")]).toBe("AB12 CDE");
    expect(insured?.[column("MOT reason")]).toBe("MOT valid until 2027-03-03");
  });

  it("writes the user's cells as numbers, dates or text by what they hold", async () => {
    const { data } = await sheetOf(table);
    const user = (line: number, name: string) =>
      data.find((row) => row[0] === line)?.[column(name)];
    expect(user(2, "Fleet number")).toBe(1000);
    expect(user(2, "Joined")).toEqual(utcDate("2024-03-01"));
    expect(user(4, "Fleet number")).toBe("007");
    expect(user(4, "Joined")).toBe("1 March 2024");
    expect(user(5, "Fleet number")).toBe(2.5);
    expect(user(6, "Fleet number")).toBe("1234567890123456");
    expect(user(11, "Fleet number")).toBe(-5);
    expect(user(11, "Make (your list)")).toBe("@home");
    expect(user(11, "Joined")).toBe("2026-02-30");
    expect(user(12, "Fleet number")).toBe("1e5");
    expect(user(3, "Fleet number")).toBe('=HYPERLINK("http://x")');
    expect(user(11, "Registration (your list)")).toBe("LPO8SED");
  });

  it("gives our dates the yyyy-mm-dd date format", async () => {
    const { bytes } = await sheetOf([["Valid to"], ["2027-06-30"]]);
    expect(zipText(bytes, "xl/styles.xml")).toContain(
      'formatCode="yyyy-mm-dd"',
    );
  });

  it("keeps the header bold and frozen", async () => {
    const { bytes, data } = await sheetOf(table);
    expect(data[0]).toEqual(header);
    expect(zipText(bytes, "xl/worksheets/sheet1.xml")).toMatch(
      /<pane [^>]*ySplit="1"[^>]*state="frozen"/,
    );
    expect(zipText(bytes, "xl/styles.xml")).toMatch(/<b\s*\/>/);
  });

  it("sizes each column to its longest line, within limits", async () => {
    const { bytes } = await sheetOf([
      ["Row", "Notes", "Fleet number", "Address"],
      ["2", "x".repeat(120), "F1", "1 High Street\nLeeds"],
    ]);
    const widths = [
      ...zipText(bytes, "xl/worksheets/sheet1.xml").matchAll(
        /<col [^>]*width="([\d.]+)"/g,
      ),
    ].map((match) => Number(match[1]));
    // Row: the minimum; Notes: capped; Fleet number: its header; Address: its longest line.
    expect(widths).toEqual([8, 50, 14, 15]);
  });

  it("never writes a formula: formula-like text stays text", async () => {
    const { bytes, data } = await sheetOf([
      ["Notes"],
      ['=HYPERLINK("http://evil","x")'],
      ["=1+1"],
      ["+44"],
    ]);
    expect(zipText(bytes, "xl/worksheets/sheet1.xml")).not.toMatch(/<f[ >]/);
    expect(data).toEqual([
      ["Notes"],
      ['=HYPERLINK("http://evil","x")'],
      ["=1+1"],
      ["+44"],
    ]);
  });

  it("finds the columns' kinds by name", async () => {
    const rows = [
      ["Row", "Year (your list)", "Year", "Valid to"],
      ["2", "1999", "2019", "2027-06-30"],
    ];
    expect((await sheetOf(rows)).data[1]).toEqual([
      2,
      1999,
      2019,
      utcDate("2027-06-30"),
    ]);
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
