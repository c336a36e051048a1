// XLSX files: real ones written by write-excel-file, and the ones that must be refused
// (zip bombs: parse-file-zip-bomb.test.ts).
import { describe, expect, it } from "vitest";
import { FLEET_MAX_ROWS } from "../fleet-types.ts";
import { guessRegistrationColumn } from "./detect-column.ts";
import { parseFile } from "./parse-file.ts";
import {
  compoundFile,
  concat,
  randomBytes,
  utf8,
  xlsxFile,
  zipFile,
} from "./test-files.ts";

describe("parseFile: XLSX", () => {
  it("reads the first sheet: header, numbers as written, dates as YYYY-MM-DD, TRUE/FALSE", async () => {
    const bytes = await xlsxFile([
      ["Registration", "Fleet number", "Next service", "Pool car", "Mileage"],
      [
        "AB12 CDE",
        7,
        {
          value: new Date(Date.UTC(2026, 6, 10)),
          type: Date,
          format: "dd/mm/yyyy",
        },
        true,
        12345.5,
      ],
      ["CD34EFG", null, null, false, 0],
    ]);
    expect(await parseFile("fleet.xlsx", bytes)).toEqual({
      source: "fleet.xlsx",
      header: [
        "Registration",
        "Fleet number",
        "Next service",
        "Pool car",
        "Mileage",
      ],
      rows: [
        { line: 2, cells: ["AB12 CDE", "7", "2026-07-10", "TRUE", "12345.5"] },
        { line: 3, cells: ["CD34EFG", "", "", "FALSE", "0"] },
      ],
      columnCount: 5,
    });
  });

  it("numbers rows as Excel does, blank rows above and between the data included", async () => {
    const bytes = await xlsxFile([
      [null, null],
      [null, "AB12CDE"],
      [null, null],
      [null, "CD34EFG"],
    ]);
    const result = await parseFile("fleet.xlsx", bytes);
    expect(result).toMatchObject({
      header: null,
      rows: [
        { line: 2, cells: ["", "AB12CDE"] },
        { line: 4, cells: ["", "CD34EFG"] },
      ],
    });
  });

  it("skips a title row above the header, keeps Excel's row numbers, and says so", async () => {
    const bytes = await xlsxFile([
      ["ACME Haulage fleet list, November", null, null, null],
      [null, null, null, null],
      ["Fleet number", "Driver", "VRM", "Depot"],
      [1000, "Sam Taylor", "AB12 CDE", "Leeds"],
      [1001, "Jo Lee", "CD34EFG", "York"],
    ]);
    const result = await parseFile("fleet.xlsx", bytes);
    expect(result).toEqual({
      source: "fleet.xlsx",
      header: ["Fleet number", "Driver", "VRM", "Depot"],
      rows: [
        { line: 4, cells: ["1000", "Sam Taylor", "AB12 CDE", "Leeds"] },
        { line: 5, cells: ["1001", "Jo Lee", "CD34EFG", "York"] },
      ],
      columnCount: 4,
      skipped: [{ line: 1, text: "ACME Haulage fleet list, November" }],
    });
    if ("code" in result) throw new Error(result.message);
    expect(guessRegistrationColumn(result)).toBe(2);
  });

  it("reads a workbook renamed .csv by its content", async () => {
    const bytes = await xlsxFile([["VRM"], ["AB12CDE"]]);
    expect(await parseFile("fleet.csv", bytes)).toMatchObject({
      header: ["VRM"],
      rows: [{ line: 2, cells: ["AB12CDE"] }],
    });
  });

  it("fails on a sheet with a header and no vehicles", async () => {
    const bytes = await xlsxFile([["Registration", "Depot"]]);
    expect(await parseFile("fleet.xlsx", bytes)).toMatchObject({
      code: "no-rows",
    });
  });

  // A real password-protected workbook is an encrypted package inside an OLE compound file;
  // making one needs Excel. Detection reads only the signature and the stream names, which
  // these have exactly as Excel writes them.
  it.each<[string, string, ArrayBuffer, string, RegExp]>([
    [
      "a password-protected workbook",
      "fleet.xlsx",
      compoundFile(["Root Entry", "EncryptionInfo", "EncryptedPackage"]),
      "protected",
      /^This spreadsheet is protected with a password\. Remove the password in Excel, save it, and upload it again\.$/,
    ],
    [
      "a compound file under an .xlsx name, streams unread",
      "fleet.xlsx",
      compoundFile(["Root Entry"]),
      "protected",
      /protected with a password/,
    ],
    [
      "an old Excel workbook (.xls)",
      "fleet.xls",
      compoundFile(["Root Entry", "Workbook"]),
      "not-a-spreadsheet",
      /old Excel file \(\.xls\).*save it as \.xlsx or \.csv/,
    ],
    [
      "an .xls renamed .xlsx",
      "fleet.xlsx",
      compoundFile(["Root Entry", "Workbook"]),
      "not-a-spreadsheet",
      /old Excel file/,
    ],
    [
      "a Word document renamed .csv",
      "fleet.csv",
      compoundFile(["Root Entry", "WordDocument"]),
      "not-a-spreadsheet",
      /not a spreadsheet/,
    ],
    [
      "a zip that is not a workbook (an .ods, a .docx)",
      "fleet.xlsx",
      zipFile([
        {
          name: "content.xml",
          data: utf8("<x/>"),
          deflated: false,
          declaredSize: 4,
        },
      ]),
      "not-a-spreadsheet",
      /zip archive, not an Excel workbook/,
    ],
    [
      "random bytes named .xlsx",
      "fleet.xlsx",
      randomBytes(8192, 7).buffer,
      "not-a-spreadsheet",
      /not a spreadsheet/,
    ],
    [
      "a zip signature then random bytes",
      "fleet.xlsx",
      concat(new Uint8Array([0x50, 0x4b, 0x03, 0x04]), randomBytes(8192, 8)),
      "corrupt",
      /damaged/,
    ],
  ])("%s", async (_name, fileName, bytes, code, message) => {
    expect(await parseFile(fileName, bytes)).toMatchObject({
      code,
      message: expect.stringMatching(message),
    });
  });

  // Writing and reading 100,001 rows takes seconds on a slow machine: a timeout with room.
  it("fails a sheet of 100,001 vehicles with the limit in words", async () => {
    const rows = Array.from({ length: FLEET_MAX_ROWS + 1 }, () => ["AB12CDE"]);
    const bytes = await xlsxFile([["Registration"], ...rows]);
    expect(await parseFile("fleet.xlsx", bytes)).toEqual({
      code: "too-many-rows",
      message:
        "This file has more than 100,000 rows. Split it into files of up to 100,000 rows.",
    });
  }, 30_000);

  it("fails on a truncated workbook", async () => {
    const bytes = await xlsxFile([["Registration"], ["AB12CDE"]]);
    const result = await parseFile(
      "fleet.xlsx",
      bytes.slice(0, bytes.byteLength - 40),
    );
    expect(result).toMatchObject({ code: "corrupt" });
  });
});
