// MOT and road tax falling due get the treatment insurance's end gets: their own filters, the
// needs-action flag, and a place in the needs-action order by days left (decision 026).
import { describe, expect, it } from "vitest";
import type { ComplianceDetails } from "@vics/shared";
import { answered, insured, validRow } from "../testing/fleet-fixtures.ts";
import type { VehicleResult } from "./fleet-types.ts";
import {
  buildResultRows,
  needsAction,
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

function withDates(
  registration: string,
  mot: string,
  tax: string,
  validTo = "2027-06-30",
): VehicleResult {
  const details: ComplianceDetails = {
    mot: { status: "valid", expiry: mot },
    tax: { status: "taxed", dueDate: tax },
    fines: { count: 0, totalPence: 0 },
  };
  return answered(registration, insured(registration, validTo).insurance, {
    status: "checked",
    compliant: true,
    checks: allPass,
    details,
  });
}

const rows = [
  validRow(2, "AA11AAA"), // all far off
  validRow(3, "MO11TDU"), // MOT in 12 days
  validRow(4, "TA11XDU"), // tax in 3 days
  validRow(5, "EX11PIR"), // cover ends in 20 days
  validRow(6, "NF11FND"), // not found
  validRow(7, "NC11CMP"), // insured, not compliant
  validRow(8, "UN11INS"), // not insured
];
const results = new Map<string, VehicleResult>(
  [
    withDates("AA11AAA", "2027-05-01", "2027-05-01"),
    withDates("MO11TDU", "2026-12-05", "2027-05-01"),
    withDates("TA11XDU", "2027-05-01", "2026-11-26"),
    withDates("EX11PIR", "2027-05-01", "2027-05-01", "2026-12-13"),
    answered("NF11FND", { status: "not-found" }),
    answered("NC11CMP", insured("NC11CMP").insurance, {
      status: "checked",
      compliant: false,
      checks: { ...allPass, noOutstandingFines: false },
    }),
    answered("UN11INS", { status: "not-insured" }),
  ].map((result) => [result.registration, result]),
);
const entries = buildResultRows(rows, results, TODAY);
const lines = (filter: OutcomeFilter) =>
  viewRows(entries, { filter, search: "", sort: DEFAULT_SORT }).map(
    (entry) => entry.row.line,
  );

describe("what falls due within 30 days", () => {
  it.each([
    ["due-mot", [3]],
    ["due-tax", [4]],
    ["due-any", [4, 3, 5]],
  ] as const)("filters %s, soonest first", (filter, expected) => {
    expect(lines(filter)).toEqual(expected);
  });

  it("counts an MOT or road tax falling due as needing action", () => {
    const byLine = new Map(entries.map((entry) => [entry.row.line, entry]));
    expect(needsAction(byLine.get(3)!)).toBe(true);
    expect(needsAction(byLine.get(4)!)).toBe(true);
    expect(needsAction(byLine.get(2)!)).toBe(false);
  });

  it("orders: not insured, then what falls due by days left, then not found, then not compliant", () => {
    expect(lines("all")).toEqual([8, 4, 3, 5, 6, 7, 2]);
    expect(lines("needs-action")).toEqual([8, 4, 3, 5, 6, 7]);
  });

  it("sorts cover expiring soon by days left, soonest first", () => {
    const expiring = buildResultRows(
      [validRow(2, "LA11TER"), validRow(3, "SO11ONR")],
      new Map([
        ["LA11TER", insured("LA11TER", "2026-12-20")],
        ["SO11ONR", insured("SO11ONR", "2026-11-25")],
      ]),
      TODAY,
    );
    const order = viewRows(expiring, {
      filter: "expiring",
      search: "",
      sort: DEFAULT_SORT,
    }).map((entry) => entry.row.line);
    expect(order).toEqual([3, 2]);
  });
});
