import { describe, expect, it } from "vitest";
import type { SavedRun } from "./fleet-types.ts";
import {
  fleetFromList,
  fleetNameFor,
  invalidRowsLeftOut,
} from "./fleet-from-run.ts";

const run: SavedRun = {
  id: "run-1",
  name: "North depot.xlsx",
  createdAt: "2026-11-27T09:00:00.000Z",
  updatedAt: "2026-11-27T09:05:00.000Z",
  status: "finished",
  checkCompliance: false,
  registrationColumn: "Reg",
  extraColumns: ["Fleet no", "Driver"],
  rows: [
    {
      line: 2,
      submitted: "AB12 CDE",
      registration: "AB12CDE",
      extra: ["17", "Sam"],
    },
    {
      line: 3,
      submitted: "AB12CDE",
      registration: "AB12CDE",
      extra: ["18", "Kim"],
    },
    {
      line: 4,
      submitted: "XX!!",
      extra: ["19", "Lee"],
      invalid: { reason: "Not a registration", suggestions: [] },
    },
    {
      line: 5,
      submitted: "LP08SED",
      registration: "LP08SED",
      extra: ["20", "Ann"],
      excluded: true,
    },
    { line: 6, submitted: "sw71 uwj", registration: "SW71UWJ", extra: ["21"] },
  ],
};

describe("fleetFromList", () => {
  it("keeps each valid, kept vehicle once, with a cell for every column", () => {
    expect(fleetFromList(run, "North depot")).toEqual({
      name: "North depot",
      columns: ["Fleet no", "Driver"],
      vehicles: [
        { registration: "AB12CDE", cells: ["17", "Sam"] },
        { registration: "SW71UWJ", cells: ["21", ""] },
      ],
    });
  });

  it("names the fleet after the list, without the file's extension", () => {
    expect(fleetNameFor("North depot.xlsx")).toBe("North depot");
    expect(fleetNameFor("Pasted list")).toBe("Pasted list");
  });

  it("says which invalid rows a saved fleet leaves out, naming the first five (issue 34, point 7)", () => {
    const invalid = (line: number) => ({
      line,
      submitted: "??",
      extra: [],
      invalid: { reason: "Not a registration", suggestions: [] },
    });
    const valid = {
      line: 2,
      submitted: "AB12CDE",
      extra: [],
      registration: "AB12CDE",
    };
    expect(invalidRowsLeftOut([valid])).toBeUndefined();
    expect(invalidRowsLeftOut([valid, invalid(1980)])).toBe(
      "1 invalid row was left out (row 1,980)",
    );
    expect(invalidRowsLeftOut([invalid(17), invalid(3)])).toBe(
      "2 invalid rows were left out (rows 3 and 17)",
    );
    const many = [
      3,
      17,
      40,
      52,
      61,
      ...Array.from({ length: 15 }, (_, i) => 100 + i),
    ];
    expect(invalidRowsLeftOut(many.map(invalid))).toBe(
      "20 invalid rows were left out (rows 3, 17, 40, 52, 61 and 15 more)",
    );
  });
});
