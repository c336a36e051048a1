// The code writes with write-excel-file's browser build (a Blob, here jsdom's); the test
// reads the bytes back with read-excel-file's Node build, as a second program would.
import { inflateRawSync } from "node:zlib";
import readXlsxFile from "read-excel-file/node";
import { describe, expect, it } from "vitest";
import { inspectZip } from "../parse/zip-guard.ts";
import { exportColumnKind, exportHeader, exportRows } from "./export-table.ts";
import { RESULTS, ROWS, RUN, TODAY } from "./export-test-run.ts";
import { exportSummary } from "./export-summary.ts";
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
  const bytes = await bytesOf(
    await toXlsx(table, {
      sheetName: "Fleet check",
      kinds: (table[0] ?? []).map(exportColumnKind),
    }),
  );
  const [sheet] = await readXlsxFile(bytes);
  return { bytes, data: sheet?.data ?? [], name: sheet?.sheet };
}

const utcDate = (iso: string) => new Date(`${iso}T00:00:00.000Z`);

describe("toXlsx", () => {
  const run = { ...RUN, checkCompliance: true };
  const header = exportHeader(run, TODAY);
  const table = [header, ...exportRows(ROWS, RESULTS, run, TODAY)];
  const column = (name: string) => header.indexOf(name);

  it("round-trips the export losslessly: every typed cell reads back as the text it came from", async () => {
    const blob = await toXlsx(table, {
      sheetName: "Fleet check",
      kinds: header.map(exportColumnKind),
    });
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
    expect(insured?.[column("MOT due")]).toEqual(utcDate("2027-03-03"));
    expect(insured?.[column("Tax due")]).toEqual(utcDate("2027-04-01"));
    expect(insured?.[column("Due within 30 days of 2026-11-23")]).toBe("No");
    expect(insured?.[column("Year")]).toBe(2019);
    // Row 11's policy ended before the file was made: its end is a date cell, no count of days.
    expect(data.at(-2)?.[column("Valid to")]).toEqual(utcDate("2026-11-03"));
    expect(header.some((name) => /days to/i.test(name))).toBe(false);
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

  it("shows our dates as a UK Excel does, dd/mm/yyyy", async () => {
    const { bytes } = await sheetOf([["Valid to"], ["2027-06-30"]]);
    expect(zipText(bytes, "xl/styles.xml")).toContain(
      'formatCode="dd/mm/yyyy"',
    );
  });

  it("puts filters on the header row, over every row and column", async () => {
    const { bytes } = await sheetOf(table);
    const sheet = zipText(bytes, "xl/worksheets/sheet1.xml");
    const lastColumn = String.fromCharCode(64 + header.length - 26);
    expect(sheet).toContain(
      `<autoFilter ref="A1:A${lastColumn}${table.length}"/>`,
    );
    // After the sheet's data, where Excel expects it (else it calls the file corrupt).
    expect(sheet.indexOf("<autoFilter")).toBeGreaterThan(
      sheet.indexOf("</sheetData>"),
    );
    expect(zipText(bytes, "xl/workbook.xml")).toContain(
      `<definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">'Fleet check'!$A$1:$A${lastColumn}$${table.length}</definedName>`,
    );
  });

  it("fills each outcome by what it asks of the manager, the words still there", async () => {
    const { bytes, data } = await sheetOf(table);
    const styles = zipText(bytes, "xl/styles.xml");
    const sheet = zipText(bytes, "xl/worksheets/sheet1.xml");
    const outcomeColumn = String.fromCharCode(65 + column("Outcome"));
    /** The fill colour of the Outcome cell on a sheet row (1-based, header = 1). */
    const fillOf = (sheetRow: number) => {
      const cell = new RegExp(
        `<c r="${outcomeColumn}${sheetRow}"[^>]* s="(\\d+)"`,
      ).exec(sheet);
      const cellXfs = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1];
      const xf = cellXfs?.match(/<xf [^>]*>/g)?.[Number(cell?.[1])];
      const fillId = Number(/fillId="(\d+)"/.exec(xf ?? "")?.[1] ?? 0);
      const fills = [...styles.matchAll(/<fill>[\s\S]*?<\/fill>/g)];
      return /fgColor rgb="FF([0-9A-F]{6})"/.exec(
        fills[fillId]?.[0] ?? "",
      )?.[1];
    };
    const sheetRowOf = (line: number) =>
      data.findIndex((row) => row[0] === line) + 1;
    expect(data[sheetRowOf(4) - 1]?.[column("Outcome")]).toBe("Not insured");
    expect(fillOf(sheetRowOf(4))).toBe("FFC7CE");
    expect(fillOf(sheetRowOf(3))).toBe("FFEB9C");
    expect(fillOf(sheetRowOf(2))).toBe("C6EFCE");
    expect(fillOf(sheetRowOf(5))).toBe("EDEDED");
    expect(fillOf(sheetRowOf(8))).toBeUndefined();
  });

  it("adds a Summary sheet of the counts after the results", async () => {
    const summary = exportSummary(
      ROWS,
      RESULTS,
      {
        ...run,
        name: "fleet.xlsx",
        createdAt: "2026-11-23T09:00:00.000Z",
        listRows: 11,
      },
      TODAY,
    );
    const bytes = await bytesOf(
      await toXlsx(table, {
        sheetName: "Fleet check",
        kinds: header.map(exportColumnKind),
        summary,
      }),
    );
    const sheets = await readXlsxFile(bytes);
    expect(sheets.map((sheet) => sheet.sheet)).toEqual([
      "Fleet check",
      "Summary",
    ]);
    const rows = sheets[1]?.data ?? [];
    expect(rows).toContainEqual(["List", "fleet.xlsx"]);
    expect(rows).toContainEqual(["Not insured", 1]);
    expect(rows).toContainEqual(["Compliant", 1]);
    expect(rows).toContainEqual([
      "Vehicles with something due within 30 days",
      1,
    ]);
    // Each group of counts under its own bold heading.
    expect(rows).toContainEqual(["Vehicles", null]);
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
