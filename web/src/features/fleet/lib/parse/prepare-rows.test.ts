import { describe, expect, it } from "vitest";
import type { FleetRow, SourceTable } from "../fleet-types.ts";
import {
  excludeRow,
  fixRow,
  inputSummary,
  NO_REGISTRATION,
  prepareRows,
  repeatedVehicles,
} from "./prepare-rows.ts";

const table: SourceTable = {
  source: "fleet.csv",
  header: ["Fleet number", "Registration", ""],
  rows: [
    { line: 2, cells: ["F1", "ab12 cde", "Leeds"] },
    { line: 3, cells: ["F2", "AB12-CDE"] },
    { line: 4, cells: ["F3", "", "Hull"] },
    { line: 5, cells: ["F4", "CD34EFG", "York"] },
    { line: 6, cells: ["F5", "AB1O CDE", "York"] },
    { line: 7, cells: ["F6", "not a plate", "York"] },
  ],
  columnCount: 3,
};

describe("prepareRows", () => {
  const prepared = prepareRows(table, 1);

  it("names the other columns by the header, or by position where it is blank", () => {
    expect(prepared.extraColumns).toEqual(["Fleet number", "Column 3"]);
    expect(prepared.registrationColumn).toBe("Registration");
  });

  it("keeps every row: valid ones normalised, the rest with a reason", () => {
    expect(prepared.rows).toEqual<FleetRow[]>([
      {
        line: 2,
        submitted: "ab12 cde",
        extra: ["F1", "Leeds"],
        registration: "AB12CDE",
      },
      {
        line: 3,
        submitted: "AB12-CDE",
        extra: ["F2", ""],
        registration: "AB12CDE",
      },
      {
        line: 4,
        submitted: "",
        extra: ["F3", "Hull"],
        invalid: { reason: NO_REGISTRATION, suggestions: [] },
      },
      {
        line: 5,
        submitted: "CD34EFG",
        extra: ["F4", "York"],
        registration: "CD34EFG",
      },
      {
        line: 6,
        submitted: "AB1O CDE",
        extra: ["F5", "York"],
        invalid: {
          reason: "Enter a registration in a UK format, like AB12 CDE",
          suggestions: ["AB10CDE"],
        },
      },
      {
        line: 7,
        submitted: "not a plate",
        extra: ["F6", "York"],
        invalid: {
          reason: "Registration must be 7 characters or fewer",
          suggestions: [],
        },
      },
    ]);
  });

  it("names columns by position when there is no header", () => {
    const headless = prepareRows({ ...table, header: null }, 1);
    expect(headless.extraColumns).toEqual(["Column 1", "Column 3"]);
    expect(headless.registrationColumn).toBeNull();
  });

  it("offers no lookalikes for long text (the search doubles with each O, 0, I or 1)", () => {
    const long = prepareRows(
      {
        ...table,
        rows: [{ line: 2, cells: ["", "O0I1O0I1O0I1O0I1O0I1O0I1O0I1O0I1"] }],
      },
      1,
    );
    expect(long.rows[0]?.invalid?.suggestions).toEqual([]);
  });
});

describe("fixRow and excludeRow", () => {
  const [, , blank, , typo] = prepareRows(table, 1).rows;
  const [misread] = prepareRows(
    {
      source: "fleet.csv",
      header: ["Registration", "Depot"],
      rows: [{ line: 2, cells: ["LPO8SED", "Leeds"] }],
      columnCount: 2,
    },
    0,
  ).rows;

  it("keeps what the list said, checks the correction, and keeps the row's place and columns", () => {
    expect(fixRow(misread!, " LP08 SED ")).toEqual<FleetRow>({
      line: 2,
      submitted: "LPO8SED",
      edited: "LP08 SED",
      extra: ["Leeds"],
      registration: "LP08SED",
    });
    expect(fixRow(typo!, "AB10 CDE")).toEqual<FleetRow>({
      line: 6,
      submitted: "AB1O CDE",
      edited: "AB10 CDE",
      extra: ["F5", "York"],
      registration: "AB10CDE",
    });
  });

  it("keeps a correction that is still invalid, with its own reason and lookalikes", () => {
    expect(fixRow(misread!, "LPO8SEDX")).toEqual<FleetRow>({
      line: 2,
      submitted: "LPO8SED",
      edited: "LPO8SEDX",
      extra: ["Leeds"],
      invalid: {
        reason: "Registration must be 7 characters or fewer",
        suggestions: [],
      },
    });
    expect(fixRow(blank!, "AB1O CDE")).toEqual<FleetRow>({
      line: 4,
      submitted: "",
      edited: "AB1O CDE",
      extra: ["F3", "Hull"],
      invalid: {
        reason: "Enter a registration in a UK format, like AB12 CDE",
        suggestions: ["AB10CDE"],
      },
    });
  });

  it("takes an empty correction as no registration, and keeps it", () => {
    expect(fixRow(misread!, "  ")).toEqual<FleetRow>({
      line: 2,
      submitted: "LPO8SED",
      edited: "",
      extra: ["Leeds"],
      invalid: { reason: NO_REGISTRATION, suggestions: [] },
    });
  });

  it("checks the latest correction, and a correction back to the list's text is none", () => {
    const fixed = fixRow(fixRow(misread!, "nonsense"), "LP08SED");
    expect(fixed).toMatchObject({ edited: "LP08SED", registration: "LP08SED" });
    expect(fixed).not.toHaveProperty("invalid");
    const undone = fixRow(fixed, "LPO8SED");
    expect(undone).toEqual(misread);
    expect(undone).not.toHaveProperty("edited");
  });

  it("excludes and includes again", () => {
    const excluded = excludeRow(typo!, true);
    expect(excluded.excluded).toBe(true);
    expect(excludeRow(excluded, false)).toEqual(typo);
  });

  it("keeps a correction when the row is excluded and included again", () => {
    const fixed = fixRow(misread!, "LP08SED");
    expect(excludeRow(excludeRow(fixed, true), false)).toEqual(fixed);
  });
});

describe("inputSummary", () => {
  it("counts rows, unique vehicles, duplicates, invalid and excluded, and what to send", () => {
    const rows = prepareRows(table, 1).rows;
    expect(inputSummary(rows)).toEqual({
      rows: 6,
      unique: 2,
      duplicates: 1,
      invalid: 3,
      excluded: 0,
      toCheck: ["AB12CDE", "CD34EFG"],
    });
  });

  it("leaves excluded rows out of what is sent, and counts them once", () => {
    const rows = prepareRows(table, 1).rows.map((row) =>
      row.line === 2 || row.line === 4 ? excludeRow(row, true) : row,
    );
    expect(inputSummary(rows)).toEqual({
      rows: 6,
      unique: 2,
      duplicates: 0,
      invalid: 2,
      excluded: 2,
      toCheck: ["AB12CDE", "CD34EFG"],
    });
  });
});

describe("repeatedVehicles", () => {
  const pasted = (cells: string[]): SourceTable => ({
    source: "Pasted list",
    header: null,
    rows: cells.map((cell, index) => ({ line: index + 1, cells: [cell] })),
    columnCount: 1,
  });

  it("names each vehicle that more than one row holds, with those rows' lines, first seen first", () => {
    const { rows } = prepareRows(
      pasted([
        "ZZ99ZZZ",
        "AB12CDE",
        "zz99 zzz",
        "X!",
        "AB12-CDE",
        "ZZ99ZZZ",
        "CD34EFG",
      ]),
      0,
    );
    expect(repeatedVehicles(rows)).toEqual([
      { registration: "ZZ99ZZZ", lines: [1, 3, 6] },
      { registration: "AB12CDE", lines: [2, 5] },
    ]);
  });

  it("leaves out excluded rows, as the check does", () => {
    const { rows } = prepareRows(pasted(["AB12CDE", "AB12CDE"]), 0);
    expect(
      repeatedVehicles([
        rows[0] as FleetRow,
        excludeRow(rows[1] as FleetRow, true),
      ]),
    ).toEqual([]);
  });
});
