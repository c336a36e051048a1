import { describe, expect, it } from "vitest";
import type { SourceTable } from "../fleet-types.ts";
import {
  guessRegistrationColumn,
  registrationHeaderRank,
} from "./detect-column.ts";

function tableOf(header: string[] | null, rows: string[][]): SourceTable {
  return {
    source: "fleet.csv",
    header,
    rows: rows.map((cells, index) => ({ line: index + 2, cells })),
    columnCount: Math.max(
      header?.length ?? 0,
      ...rows.map((row) => row.length),
    ),
  };
}

describe("registrationHeaderRank", () => {
  it.each([
    "Registration",
    "REGISTRATION NUMBER",
    "Reg",
    "Reg. No.",
    "reg_no",
    "Reg number",
    "VRM",
    "vrn",
    "Plate",
    "Number plate",
    "Vehicle",
    "Vehicle registration",
    "Vehicle Reg No",
  ])("%s is a registration header", (name) => {
    expect(registrationHeaderRank(name)).toBeGreaterThanOrEqual(0);
  });

  it.each([
    "Driver",
    "Depot",
    "Fleet number",
    "Registered keeper",
    "Regional depot",
    "",
  ])("%s is not", (name) => {
    expect(registrationHeaderRank(name)).toBe(-1);
  });
});

describe("guessRegistrationColumn", () => {
  it.each<[string, string[] | null, string[][], number | null]>([
    [
      "a header name",
      ["Fleet number", "Driver", "Reg No"],
      [["F1", "Sam", "AB12CDE"]],
      2,
    ],
    [
      "a registration name beats Vehicle",
      ["Vehicle", "Registration"],
      [["Ford Focus", "AB12CDE"]],
      1,
    ],
    [
      "of two named columns, the one holding registrations",
      ["Registration", "VRM"],
      [
        ["pending", "AB12CDE"],
        ["n/a", "CD34EFG"],
      ],
      1,
    ],
    [
      "a named column even when its values are mistyped",
      ["Depot", "Registration"],
      [["Leeds", "AB12CDEX"]],
      1,
    ],
    [
      "no header: the column of registrations",
      null,
      [
        ["F1", "AB12CDE", "Leeds"],
        ["F2", "CD34 EFG", "York"],
        ["F3", "bad", "Hull"],
      ],
      1,
    ],
    [
      "unnamed headers: by values",
      ["Number", "Who"],
      [
        ["AB12CDE", "Sam"],
        ["CD34EFG", "Jo"],
      ],
      0,
    ],
    [
      "half the values is enough, blanks not counted",
      null,
      [
        ["001", "AB12CDE"],
        ["002", ""],
        ["003", "typo"],
      ],
      1,
    ],
    [
      "less than half is not",
      null,
      [
        ["001", "AB12CDE"],
        ["002", "typo"],
        ["003", "typo2"],
      ],
      null,
    ],
    [
      "fleet numbers like F1 are dateless plates, but dated plates tell more",
      null,
      [
        ["F1", "AB12CDE"],
        ["F2", "A123BCD"],
        ["F3", "typo"],
      ],
      1,
    ],
    ["one column is the column", null, [["not a plate"]], 0],
  ])("%s", (_name, header, rows, expected) => {
    expect(guessRegistrationColumn(tableOf(header, rows))).toBe(expected);
  });
});
