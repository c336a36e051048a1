import { describe, expect, it } from "vitest";
import {
  answered,
  insured,
  invalidRow,
  validRow,
} from "../testing/fleet-fixtures.ts";
import type { VehicleResult } from "./fleet-types.ts";
import { buildResultRows, viewRows } from "./results-view.ts";
import { DEFAULT_SORT } from "./results-sort.ts";
import { summariseRun } from "./run-summary.ts";

const checks = {
  insuranceValid: true,
  motValid: false,
  roadTaxPaid: false,
  noOutstandingFines: true,
};

describe("the run summary", () => {
  it("counts the list in rows and the answers in vehicles", () => {
    const rows = [
      validRow(2, "AB12CDE"),
      validRow(3, "AB12CDE"),
      validRow(4, "UN51NSD"),
      invalidRow(5, "??"),
      { ...validRow(6, "LP08SED"), excluded: true },
      validRow(7, "MT15EXP"),
      validRow(8, "ZZ99ZZZ"),
    ];
    const results = new Map<string, VehicleResult>(
      [
        insured("AB12CDE"),
        answered("UN51NSD", { status: "not-insured" }),
        answered("MT15EXP", insured("MT15EXP").insurance, {
          status: "checked",
          compliant: false,
          checks,
        }),
      ].map((result) => [result.registration, result]),
    );
    const summary = summariseRun(
      buildResultRows(rows, results, "2026-11-23"),
      true,
    );
    expect(summary).toEqual({
      rows: 7,
      uniqueVehicles: 4,
      duplicateRows: 1,
      invalidRows: 1,
      excludedRows: 1,
      vehicles: {
        "not-insured": 1,
        expiring: 0,
        "not-yet-on-record": 0,
        "not-found": 0,
        "not-checked": 0,
        invalid: 0,
        pending: 1,
        insured: 2,
      },
      compliance: {
        compliant: 0,
        notCompliant: 1,
        notChecked: 0,
        failing: {
          insuranceValid: 0,
          motValid: 1,
          roadTaxPaid: 1,
          noOutstandingFines: 0,
        },
        dueSoon: { mot: 0, tax: 0 },
      },
    });
  });

  it("has no compliance part when compliance was not checked", () => {
    const summary = summariseRun(
      buildResultRows([validRow(2, "AB12CDE")], new Map(), "2026-11-23"),
      false,
    );
    expect(summary.compliance).toBeUndefined();
    expect(summary.vehicles.pending).toBe(1);
  });

  it("counts a vehicle whose compliance got no answer as compliance not checked", () => {
    const rows = [validRow(2, "AB12CDE"), validRow(3, "MT15EXP")];
    const results = new Map<string, VehicleResult>([
      [
        "AB12CDE",
        answered("AB12CDE", insured("AB12CDE").insurance, {
          status: "not-checked",
          reason: "No answer",
        }),
      ],
      [
        "MT15EXP",
        answered("MT15EXP", insured("MT15EXP").insurance, {
          status: "checked",
          compliant: true,
          checks: { ...checks, motValid: true, roadTaxPaid: true },
        }),
      ],
    ]);
    const entries = buildResultRows(rows, results, "2026-11-23");
    const summary = summariseRun(entries, true);
    expect(summary.compliance).toMatchObject({
      compliant: 1,
      notCompliant: 0,
      notChecked: 1,
    });
    // Its insurance is answered: the vehicle counts as insured, and still needs a look.
    expect(summary.vehicles.insured).toBe(2);
    expect(
      viewRows(entries, {
        filter: "not-checked",
        search: "",
        sort: DEFAULT_SORT,
      }).map((entry) => entry.row.line),
    ).toEqual([2]);
    expect(
      viewRows(entries, {
        filter: "needs-action",
        search: "",
        sort: DEFAULT_SORT,
      }).map((entry) => entry.row.line),
    ).toEqual([2]);
  });
});
