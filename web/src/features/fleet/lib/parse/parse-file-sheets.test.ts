// Workbooks of several sheets: the fleet is not always on the first one.
import { describe, expect, it } from "vitest";
import { parseFile } from "./parse-file.ts";
import { workbookFile, xlsxFile } from "./test-files.ts";

const summary: Array<Array<string | number | null>> = [
  ["Fleet summary – Q4", null],
  [null, null],
  ["Depot", "Vehicles"],
  ["Leeds", 12],
  ["York", 9],
  ["Hull", 27],
];
const vehicles = [
  ["Registration", "Driver", "Depot"],
  ["AB12 CDE", "Sam Taylor", "Leeds"],
  ["CD34EFG", "Jo Lee", "York"],
  ["EF56 GHI", "Ali Khan", "Hull"],
];

describe("parseFile: a workbook of several sheets", () => {
  it("reads the sheet that holds registrations, and lists every sheet with its rows", async () => {
    const bytes = await workbookFile([
      ["Fleet summary – Q4", summary],
      ["Vehicles", vehicles],
    ]);
    const table = await parseFile("fleet.xlsx", bytes);
    expect(table).toMatchObject({
      source: "fleet.xlsx (sheet “Vehicles”)",
      sheet: "Vehicles",
      header: ["Registration", "Driver", "Depot"],
      rows: [
        { line: 2, cells: ["AB12 CDE", "Sam Taylor", "Leeds"] },
        { line: 3, cells: ["CD34EFG", "Jo Lee", "York"] },
        { line: 4, cells: ["EF56 GHI", "Ali Khan", "Hull"] },
      ],
      sheets: [
        { name: "Fleet summary – Q4", rows: 5, registrations: 0 },
        { name: "Vehicles", rows: 3, registrations: 3 },
      ],
    });
  });

  it("reads the sheet the user chose, by its name", async () => {
    const bytes = await workbookFile([
      ["Vehicles", vehicles],
      ["Spares", [["Registration"], ["GH78 IJK"]]],
    ]);
    const table = await parseFile("fleet.xlsx", bytes, "Spares");
    expect(table).toMatchObject({
      source: "fleet.xlsx (sheet “Spares”)",
      sheet: "Spares",
      rows: [{ line: 2, cells: ["GH78 IJK"] }],
      sheets: [
        { name: "Vehicles", rows: 3, registrations: 3 },
        { name: "Spares", rows: 1, registrations: 1 },
      ],
    });
  });

  it("says nothing of sheets when only one has anything in it", async () => {
    const bytes = await workbookFile([
      ["Vehicles", vehicles],
      ["Sheet2", [[null]]],
    ]);
    const table = await parseFile("fleet.xlsx", bytes);
    expect(table).toMatchObject({ source: "fleet.xlsx" });
    expect(table).not.toHaveProperty("sheets");
    expect(table).not.toHaveProperty("sheet");
  });

  it("lists a sheet with a header and nothing under it as 0 rows, never chosen", async () => {
    const bytes = await workbookFile([
      ["Template", [["Registration", "Driver"]]],
      ["Vehicles", vehicles],
    ]);
    expect(await parseFile("fleet.xlsx", bytes)).toMatchObject({
      sheet: "Vehicles",
      sheets: [
        { name: "Template", rows: 0, registrations: 0 },
        { name: "Vehicles", rows: 3, registrations: 3 },
      ],
    });
  });

  it("still reads a one-sheet workbook as before", async () => {
    const bytes = await xlsxFile(vehicles);
    const table = await parseFile("fleet.xlsx", bytes);
    expect(table).toMatchObject({ source: "fleet.xlsx" });
    expect(table).not.toHaveProperty("sheets");
  });
});
