// Totals and notes under a list ("Total;48", "Total vehicles: 48", "Notes: ..."): left out
// with a note, as title rows above the header are, never listed as bad registrations.
import { describe, expect, it } from "vitest";
import { parseFile } from "./parse-file.ts";
import { textFile, xlsxFile } from "./test-files.ts";

/** As Excel saves "CSV UTF-8" in a UK locale that lists with semicolons. */
const EXCEL_CSV = [
  "\uFEFFACME Haulage fleet list, November;;",
  ";;",
  "Fleet number;Registration;Depot",
  "F001;AB12 CDE;Leeds",
  "F002;CD34EFG;York",
  "F003;EF56 GHI;Hull",
  ";;",
  "Total;3;",
  "",
].join("\r\n");

describe("parseFile: totals and notes under the list", () => {
  it("leaves out a totals row of an Excel CSV (BOM, semicolons, CRLF, a title) and says so", async () => {
    expect(await parseFile("fleet.csv", textFile(EXCEL_CSV))).toEqual({
      source: "fleet.csv",
      header: ["Fleet number", "Registration", "Depot"],
      rows: [
        { line: 4, cells: ["F001", "AB12 CDE", "Leeds"] },
        { line: 5, cells: ["F002", "CD34EFG", "York"] },
        { line: 6, cells: ["F003", "EF56 GHI", "Hull"] },
      ],
      columnCount: 3,
      skipped: [{ line: 1, text: "ACME Haulage fleet list, November" }],
      skippedBelow: [{ line: 8, text: "Total 3" }],
    });
  });

  it.each([
    ["Total vehicles: 48", ["Total vehicles: 48", "", ""]],
    ["Grand total", ["Grand total", "", "48"]],
    ["TOTALS", ["", "TOTALS", "48"]],
    ["Notes", ["Notes: two vans off the road", "", ""]],
    ["Comments", ["Comments", "check the hire vans", ""]],
  ])("leaves out a %s row", async (_name, cells) => {
    const bytes = await xlsxFile([
      ["Fleet number", "Registration", "Depot"],
      ["F001", "AB12 CDE", "Leeds"],
      ["F002", "CD34EFG", "York"],
      cells,
    ]);
    const table = await parseFile("fleet.xlsx", bytes);
    expect(table).toMatchObject({
      rows: [{ line: 2 }, { line: 3 }],
      skippedBelow: [
        { line: 4, text: cells.filter((cell) => cell !== "").join(" ") },
      ],
    });
  });

  it("leaves out a totals row and the notes under it", async () => {
    const csv =
      "Registration,Depot\nAB12CDE,Leeds\nTotal,1\nNotes: as of Friday,\n";
    expect(await parseFile("fleet.csv", textFile(csv))).toMatchObject({
      rows: [{ line: 2, cells: ["AB12CDE", "Leeds"] }],
      skippedBelow: [
        { line: 3, text: "Total 1" },
        { line: 4, text: "Notes: as of Friday" },
      ],
    });
  });

  it.each([
    ["a registration in it", "Notes,AB12CDE\n", 2],
    ["a vehicle under it", "Total,2\nCD34EFG,York\n", 3],
  ])("keeps a row with %s", async (_name, tail, rows) => {
    const csv = `Registration,Depot\nAB12CDE,Leeds\n${tail}`;
    const table = await parseFile("fleet.csv", textFile(csv));
    expect(table).toHaveProperty("rows.length", rows);
    expect(table).not.toHaveProperty("skippedBelow");
  });

  it("fails a list that is only a totals row under its header", async () => {
    const csv = "Registration,Depot\nTotal,0\n";
    expect(await parseFile("fleet.csv", textFile(csv))).toMatchObject({
      code: "no-rows",
    });
  });
});
