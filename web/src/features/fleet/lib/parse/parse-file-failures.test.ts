// Text files that must be refused, each with words to act on; and the row limit.
import { describe, expect, it } from "vitest";
import { FLEET_MAX_ROWS } from "../fleet-types.ts";
import { parseFile } from "./parse-file.ts";
import { randomBytes, textFile } from "./test-files.ts";

describe("parseFile: text files refused", () => {
  it("reads the limit of rows under a header, and fails one over it with the limit in words", async () => {
    const lines = Array.from(
      { length: FLEET_MAX_ROWS },
      (_, index) => `AB12CDE,${index}`,
    );
    const full = await parseFile(
      "fleet.csv",
      textFile(["Registration,Fleet", ...lines].join("\n")),
    );
    expect(full).toHaveProperty("rows.length", FLEET_MAX_ROWS);
    expect("rows" in full && full.rows.at(-1)).toEqual({
      line: FLEET_MAX_ROWS + 1,
      cells: ["AB12CDE", String(FLEET_MAX_ROWS - 1)],
    });

    const over = await parseFile(
      "fleet.csv",
      textFile([...lines, "AB12CDE,x"].join("\n")),
    );
    expect(over).toEqual({
      code: "too-many-rows",
      message:
        "This file has more than 100,000 rows. Split it into files of up to 100,000 rows.",
    });
  });

  it.each<[string, string, ArrayBuffer, string, RegExp]>([
    ["an empty file", "fleet.csv", new ArrayBuffer(0), "empty", /empty/],
    [
      "only blank lines and a BOM",
      "fleet.csv",
      textFile("\uFEFF\r\n \r\n"),
      "empty",
      /empty/,
    ],
    ["only separators", "fleet.csv", textFile(",,\n, ,\n"), "empty", /empty/],
    [
      "a header and no vehicles",
      "fleet.csv",
      textFile("Registration,Depot\n\n"),
      "no-rows",
      /header row but no vehicles/,
    ],
    [
      "a file type we do not read",
      "fleet.pdf",
      textFile("AB12CDE"),
      "not-a-spreadsheet",
      /cannot read "fleet.pdf"/,
    ],
    [
      "no extension",
      "fleet",
      textFile("AB12CDE"),
      "not-a-spreadsheet",
      /\.xlsx, \.csv, \.tsv or \.txt/,
    ],
    [
      "a PDF named .csv",
      "fleet.csv",
      textFile("%PDF-1.7\nAB12CDE"),
      "not-a-spreadsheet",
      /not a spreadsheet/,
    ],
    [
      "random bytes named .csv",
      "fleet.csv",
      randomBytes(4096, 1).buffer,
      "not-a-spreadsheet",
      /not a spreadsheet/,
    ],
    [
      "a NUL byte in text",
      "fleet.txt",
      textFile("AB12CDE\n\0CD34EFG\n"),
      "not-a-spreadsheet",
      /not a spreadsheet/,
    ],
    [
      "one endless line",
      "fleet.csv",
      textFile("AB12CDE\n" + "A".repeat(150_000)),
      "not-a-spreadsheet",
      /Line 2 is more than 100,000 characters/,
    ],
    [
      "a quote never closed",
      "fleet.csv",
      textFile('Registration,Notes\nAB12CDE,"open\nCD34EFG,x\n'),
      "corrupt",
      /Line 2 has a quote mark/,
    ],
    [
      // Papaparse would read on to the next quote and make lines 1 to 3 one cell.
      "a stray quote closed lines later",
      "fleet.csv",
      textFile('"AB12CDE,F1\nEF56GHI,F2\nCD34EFG,"Smith, J"\nGH78IJK,F4\n'),
      "corrupt",
      /Line 1 has a quote mark \(".*Put the quote right/,
    ],
    [
      "a text file named .xls",
      "fleet.xls",
      textFile("AB12CDE\n"),
      "not-a-spreadsheet",
      /save it as \.xlsx or \.csv/,
    ],
  ])("%s fails clearly", async (_name, fileName, bytes, code, message) => {
    const result = await parseFile(fileName, bytes);
    expect(result).toMatchObject({
      code,
      message: expect.stringMatching(message),
    });
  });
});
