// Text files (CSV, TSV, TXT) as people's tools write them. Refusals and the row limit:
// parse-file-failures.test.ts; XLSX: parse-file-xlsx.test.ts and parse-file-zip-bomb.test.ts;
// random input: parse.fuzz.test.ts and parse-file-hostile.test.ts.
import { describe, expect, it } from "vitest";
import type { SourceTable } from "../fleet-types.ts";
import { guessRegistrationColumn } from "./detect-column.ts";
import { parseFile } from "./parse-file.ts";
import { concat, textFile } from "./test-files.ts";

async function table(name: string, bytes: ArrayBuffer): Promise<SourceTable> {
  const result = await parseFile(name, bytes);
  if ("code" in result) throw new Error(`Expected a table: ${result.message}`);
  return result;
}

const rowsOf = (result: SourceTable) =>
  result.rows.map(({ line, cells }) => [line, ...cells]);

describe("parseFile: text files", () => {
  it.each<
    [string, string, string, string[] | null, Array<Array<string | number>>]
  >([
    [
      "CSV with a header",
      "fleet.csv",
      "Registration,Fleet number\nAB12CDE,F1\nCD34EFG,F2\n",
      ["Registration", "Fleet number"],
      [
        [2, "AB12CDE", "F1"],
        [3, "CD34EFG", "F2"],
      ],
    ],
    [
      "a UTF-8 BOM and CRLF (Excel's CSV UTF-8)",
      "fleet.csv",
      "\uFEFFReg No,Depot\r\nAB12CDE,Leeds\r\n",
      ["Reg No", "Depot"],
      [[2, "AB12CDE", "Leeds"]],
    ],
    [
      "quoted fields with commas, quotes and line breaks inside: a row's line is where it starts",
      "fleet.csv",
      'VRM,Driver,Notes\r\nAB12CDE,"Smith, J","Says ""hi""\r\nover two lines"\r\nCD34EFG,"Jones, K",ok\r\n',
      ["VRM", "Driver", "Notes"],
      [
        [2, "AB12CDE", "Smith, J", 'Says "hi"\nover two lines'],
        [4, "CD34EFG", "Jones, K", "ok"],
      ],
    ],
    [
      "blank and white-space lines are left out, line numbers kept",
      "fleet.csv",
      "Plate,Depot\n\nAB12CDE,Leeds\n , \n\nCD34EFG,York\n\n",
      ["Plate", "Depot"],
      [
        [3, "AB12CDE", "Leeds"],
        [6, "CD34EFG", "York"],
      ],
    ],
    [
      "no header: row 1 is a vehicle",
      "fleet.csv",
      "AB12CDE,F1\nCD34EFG,F2\n",
      null,
      [
        [1, "AB12CDE", "F1"],
        [2, "CD34EFG", "F2"],
      ],
    ],
    [
      "semicolons (Excel in much of Europe)",
      "fleet.csv",
      "Registration;Driver\nAB12CDE;Smith, J\n",
      ["Registration", "Driver"],
      [[2, "AB12CDE", "Smith, J"]],
    ],
    [
      "pipes",
      "fleet.txt",
      "Vehicle|Depot\nAB12CDE|Leeds\n",
      ["Vehicle", "Depot"],
      [[2, "AB12CDE", "Leeds"]],
    ],
    [
      "TSV, whose cells may hold commas",
      "fleet.tsv",
      "Registration\tDriver\nAB12CDE\tSmith, J\n",
      ["Registration", "Driver"],
      [[2, "AB12CDE", "Smith, J"]],
    ],
    [
      "a TXT list, one registration per line",
      "list.txt",
      "AB12 CDE\nCD34-EFG\n",
      null,
      [
        [1, "AB12 CDE"],
        [2, "CD34-EFG"],
      ],
    ],
    [
      "a title row above registrations is a header though no header name",
      "list.csv",
      "Our vans\nAB12CDE\nCD34EFG\n",
      ["Our vans"],
      [
        [2, "AB12CDE"],
        [3, "CD34EFG"],
      ],
    ],
    [
      "a mistyped registration in row 1 stays data",
      "list.csv",
      "AB12CDEX\nAB12CDE\nCD34EFG\n",
      null,
      [
        [1, "AB12CDEX"],
        [2, "AB12CDE"],
        [3, "CD34EFG"],
      ],
    ],
    [
      "columns blank all the way down are dropped",
      "fleet.csv",
      "Registration,Depot,,\nAB12CDE,Leeds,,\nCD34EFG,,,\n",
      ["Registration", "Depot"],
      [
        [2, "AB12CDE", "Leeds"],
        [3, "CD34EFG", ""],
      ],
    ],
    [
      "mixed line breaks from two systems",
      "fleet.csv",
      "Registration\r\nAB12CDE\nCD34EFG\rEF56GHI\r\n",
      ["Registration"],
      [
        [2, "AB12CDE"],
        [3, "CD34EFG"],
        [4, "EF56GHI"],
      ],
    ],
    [
      "an upper-case extension",
      "FLEET.CSV",
      "AB12CDE\n",
      null,
      [[1, "AB12CDE"]],
    ],
  ])("%s", async (_name, fileName, text, header, rows) => {
    const result = await table(fileName, textFile(text));
    expect(result.source).toBe(fileName);
    expect(result.header).toEqual(header);
    expect(rowsOf(result)).toEqual(rows);
    expect(result.columnCount).toBe(
      Math.max(...rows.map((row) => row.length - 1)),
    );
  });

  it("skips a title row above the header, as Excel saves it, and says so", async () => {
    const result = await table(
      "fleet.csv",
      textFile(
        '"ACME Haulage fleet list, November",,,\r\n,,,\r\nFleet number,Driver,VRM,Depot\r\n1000,Sam Taylor,AB12 CDE,Leeds\r\nF002,Jo Lee,CD34EFG,York\r\n',
      ),
    );
    expect(result.header).toEqual(["Fleet number", "Driver", "VRM", "Depot"]);
    expect(rowsOf(result)).toEqual([
      [4, "1000", "Sam Taylor", "AB12 CDE", "Leeds"],
      [5, "F002", "Jo Lee", "CD34EFG", "York"],
    ]);
    expect(result.skipped).toEqual([
      { line: 1, text: "ACME Haulage fleet list, November" },
    ]);
    expect(guessRegistrationColumn(result)).toBe(2);
  });

  it.each<[string, ArrayBuffer]>([
    [
      "Windows-1252 (Excel's plain CSV)",
      concat(
        new TextEncoder().encode("Registration,Depot\nAB12CDE,Caf"),
        new Uint8Array([0xe9, 0x2c, 0xa3, 0x35, 0x0a]),
      ),
    ],
    [
      "UTF-16 with a BOM (Excel's Unicode Text)",
      concat(
        new Uint8Array([0xff, 0xfe]),
        new Uint8Array(
          [..."Registration\tDepot\r\nAB12CDE\tCafé\t£5\r\n"].flatMap(
            (char) => [char.charCodeAt(0) & 0xff, char.charCodeAt(0) >> 8],
          ),
        ),
      ),
    ],
  ])("decodes %s", async (_name, bytes) => {
    const result = await table("fleet.txt", bytes);
    expect(result.rows[0]?.cells).toEqual(["AB12CDE", "Café", "£5"]);
  });

  it("reads a CSV saved with an .xlsx name by its content", async () => {
    const result = await table(
      "fleet.xlsx",
      textFile("Registration\nAB12CDE\n"),
    );
    expect(rowsOf(result)).toEqual([[2, "AB12CDE"]]);
  });
});
