import { describe, expect, it } from "vitest";
import {
  exportHeader,
  exportRows,
  numericExportColumns,
} from "./export-table.ts";
import { EXTRA_COLUMNS, RESULTS, ROWS, TODAY } from "./export-test-run.ts";

const insuranceRun = { extraColumns: EXTRA_COLUMNS, checkCompliance: false };
const complianceRun = { extraColumns: EXTRA_COLUMNS, checkCompliance: true };

/** Each exported row as an object keyed by the header, to read the tests by column name. */
function exported(run: typeof insuranceRun) {
  const header = exportHeader(run);
  return exportRows(ROWS, RESULTS, run, TODAY).map((cells) => {
    expect(cells).toHaveLength(header.length);
    return Object.fromEntries(
      header.map((name, index) => [name, cells[index]]),
    );
  });
}

describe("exportHeader", () => {
  it("lists the issue's columns in order, the user's between Row and ours", () => {
    expect(exportHeader(insuranceRun)).toEqual([
      "Row",
      "Fleet number",
      "Make (your list)",
      "Registration as submitted",
      "Registration",
      "Outcome",
      "Insurer",
      "Policy number",
      "Cover type",
      "Valid from",
      "Valid to",
      "Days to expiry",
      "Make",
      "Model",
      "Year",
      "Colour",
      "Error",
    ]);
  });

  it("adds the verdict, the four checks and their reasons with compliance", () => {
    expect(exportHeader(complianceRun).slice(17)).toEqual([
      "Compliant",
      "Insurance check",
      "Insurance reason",
      "MOT check",
      "MOT reason",
      "Road tax check",
      "Road tax reason",
      "Fines check",
      "Fines reason",
    ]);
  });

  it("points at Row, Days to expiry and Year as the numeric columns", () => {
    const header = exportHeader(complianceRun);
    expect(
      numericExportColumns(complianceRun).map((index) => header[index]),
    ).toEqual(["Row", "Days to expiry", "Year"]);
  });
});

describe("exportRows", () => {
  const rows = exported(insuranceRun);
  const byRow = (line: number) => rows.find((row) => row.Row === String(line));

  it("has one row per row of the list, in order, nothing dropped", () => {
    expect(rows.map((row) => row.Row)).toEqual(
      ROWS.map((row) => String(row.line)),
    );
  });

  it("writes an insured vehicle in full, registration DVLA-spaced and dates as YYYY-MM-DD", () => {
    expect(byRow(2)).toEqual({
      Row: "2",
      "Fleet number": "F1",
      "Make (your list)": "Ford",
      "Registration as submitted": "ab12 cde",
      Registration: "AB12 CDE",
      Outcome: "Insured",
      Insurer: "Acorn Mutual",
      "Policy number": "POL-2027-06-30",
      "Cover type": "Third Party, Fire and Theft",
      "Valid from": "2026-01-01",
      "Valid to": "2027-06-30",
      "Days to expiry": "219",
      Make: "Ford",
      Model: "Focus",
      Year: "2019",
      Colour: "Blue",
      Error: "",
    });
  });

  it.each<[number, Record<string, string>]>([
    [
      3,
      { Outcome: "Insured, expiring soon", "Days to expiry": "10", Error: "" },
    ],
    [
      4,
      {
        Outcome: "Not insured",
        Insurer: "",
        "Days to expiry": "",
        Make: "Vauxhall",
        Error: "",
      },
    ],
    [5, { Outcome: "Not found", Make: "", Error: "Vehicle not found" }],
    [
      6,
      { Outcome: "Not checked", Error: "Temporarily unavailable, retry later" },
    ],
    [
      7,
      {
        Outcome: "Invalid registration",
        Registration: "",
        Error: "Enter a registration in a UK format, like AB12 CDE",
      },
    ],
    // Excluded: not sent, so row 2's answer for the same vehicle is not written on it.
    [
      8,
      {
        Outcome: "Excluded",
        Registration: "AB12 CDE",
        Insurer: "",
        Make: "",
        Error: "",
      },
    ],
    [9, { Outcome: "Not checked yet", Insurer: "", Error: "" }],
    // A duplicate of row 2 gets row 2's answer.
    [
      10,
      {
        Outcome: "Insured",
        Insurer: "Acorn Mutual",
        "Registration as submitted": "AB12CDE",
      },
    ],
    // Cover that ended after the run was saved: negative days, kept as a number.
    [11, { Outcome: "Insured", "Days to expiry": "-20" }],
  ])("row %i", (line, expected) => {
    expect(byRow(line)).toMatchObject(expected);
  });

  it("writes compliance for the vehicles that have it, blank for the rest", () => {
    const withCompliance = exported(complianceRun);
    expect(withCompliance[0]).toMatchObject({
      Compliant: "Yes",
      "Insurance check": "Pass",
      "MOT reason": "MOT valid until 2027-03-03",
      "Fines reason": "No unpaid fines",
    });
    expect(withCompliance.find((row) => row.Row === "8")).toMatchObject({
      Compliant: "",
      "MOT check": "",
    });
    expect(withCompliance.find((row) => row.Row === "5")).toMatchObject({
      Compliant: "",
      Error: "Vehicle not found",
    });
  });

  it("says when compliance alone was not answered", () => {
    const [answer] = [...RESULTS.values()];
    const results = new Map([
      [
        "AB12CDE",
        {
          ...answer!,
          compliance: {
            status: "not-checked" as const,
            reason: "Rate limited",
          },
        },
      ],
    ]);
    const [first] = exportRows(ROWS.slice(0, 1), results, complianceRun, TODAY);
    expect(first?.[16]).toBe("Compliance not checked: Rate limited");
  });
});
