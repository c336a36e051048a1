import { describe, expect, it } from "vitest";
import {
  answered,
  insured,
  invalidRow,
  validRow,
} from "../testing/fleet-fixtures.ts";
import type { VehicleResult } from "./fleet-types.ts";
import {
  buildResultRows,
  viewRows,
  type OutcomeFilter,
} from "./results-view.ts";
import { DEFAULT_SORT } from "./results-sort.ts";

const TODAY = "2026-11-23";
const allPass = {
  insuranceValid: true,
  motValid: true,
  roadTaxPaid: true,
  noOutstandingFines: true,
};

const rows = [
  validRow(2, "AB12CDE", ["F-1", "Ann"]),
  validRow(3, "UN51NSD", ["F-2", "Bob"]),
  validRow(4, "EX26SON", ["F-3", "Cat"]),
  invalidRow(5, "NOT A REG"),
  validRow(6, "ZZ99ZZZ", ["F-5", "Dev"]),
  { ...validRow(7, "LP08SED", ["F-6", "Eve"]), excluded: true },
  validRow(8, "ER19ERR", ["F-7", "Fay"]),
  validRow(9, "AB12CDE", ["F-8", "Gus"]),
  validRow(10, "MT15EXP", ["F-9", "Hal"]),
];
const results = new Map<string, VehicleResult>(
  [
    answered("AB12CDE", insured("AB12CDE").insurance, {
      status: "checked",
      compliant: true,
      checks: allPass,
    }),
    answered("UN51NSD", { status: "not-insured" }),
    insured("EX26SON", "2026-12-03", "Beacon"),
    answered("ZZ99ZZZ", { status: "not-found" }),
    answered("ER19ERR", { status: "not-checked", reason: "No answer" }),
    answered("MT15EXP", insured("MT15EXP").insurance, {
      status: "checked",
      compliant: false,
      checks: { ...allPass, motValid: false },
    }),
  ].map((result) => [result.registration, result]),
);
const entries = buildResultRows(rows, results, TODAY);
const lines = (filter: OutcomeFilter, search = "", sort = DEFAULT_SORT) =>
  viewRows(entries, { filter, search, sort }).map((entry) => entry.row.line);

describe("the results view", () => {
  it("gives every row one outcome, a duplicate the result of its vehicle", () => {
    expect(entries.map((entry) => [entry.row.line, entry.outcome])).toEqual([
      [2, "insured"],
      [3, "not-insured"],
      [4, "expiring"],
      [5, "invalid"],
      [6, "not-found"],
      [7, "excluded"],
      [8, "not-checked"],
      [9, "insured"],
      [10, "insured"],
    ]);
    expect(entries[9 - 2]?.result).toBe(entries[0]?.result);
  });

  it("puts the vehicles needing action first, not found before not compliant, excluded last, ties in list order", () => {
    expect(lines("all")).toEqual([3, 4, 6, 10, 8, 5, 2, 9, 7]);
  });

  it.each([
    ["needs-action", [3, 4, 6, 10, 8, 5]],
    ["not-insured", [3]],
    ["expiring", [4]],
    ["excluded", [7]],
    ["not-compliant", [10]],
    ["failing-motValid", [10]],
    ["failing-roadTaxPaid", []],
  ] as const)("filters %s", (filter, expected) => {
    expect(lines(filter)).toEqual(expected);
  });

  it.each([
    ["ab12 cde", [2, 9]],
    ["ab12-cde", [2, 9]],
    ["gus", [9]],
    ["f-3", [4]],
    ["not a", [5]],
    ["nothing like it", []],
    // What the answer says of the vehicle: its insurer, its make and model.
    ["beacon", [4]],
    ["ford focus", [2, 4, 9, 10]],
  ])(
    "searches %j in the registration and every other cell",
    (search, expected) => {
      expect(lines("all", search).sort((a, b) => a - b)).toEqual(expected);
    },
  );

  it("sorts by a column either way, blanks last both ways", () => {
    const byInsurer = (direction: "ascending" | "descending") =>
      lines("all", "", { column: "insurer", direction });
    expect(byInsurer("ascending").slice(0, 4)).toEqual([2, 9, 10, 4]);
    expect(byInsurer("descending").slice(0, 4)).toEqual([4, 2, 9, 10]);
    expect(byInsurer("descending").slice(4)).toEqual([3, 5, 6, 7, 8]);
    expect(
      lines("all", "", { column: { extra: 1 }, direction: "descending" }),
    ).toEqual([10, 9, 8, 7, 6, 4, 3, 2, 5]);
  });

  it("handles 100,000 rows", () => {
    const many = Array.from({ length: 100_000 }, (_, index) =>
      validRow(index + 2, `AB${String((index % 90) + 10)}CDE`),
    );
    const big = buildResultRows(many, results, TODAY);
    const shown = viewRows(big, {
      filter: "insured",
      search: "",
      sort: DEFAULT_SORT,
    });
    expect(shown).toHaveLength(Math.ceil(100_000 / 90));
  });
});
