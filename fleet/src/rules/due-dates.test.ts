import { describe, expect, it } from "vitest";
import { dueDates, dueSoon } from "./due-dates.ts";
import type { VehicleResult } from "../results.ts";

const policy = {
  number: "P1",
  insurer: "Acme",
  validFrom: "2026-01-01",
  validTo: "2026-12-20",
  type: "Comprehensive",
};

function result(
  mot: {
    status: "valid" | "expired" | "exempt" | "none";
    expiry: string | null;
  },
  tax: { status: "taxed" | "untaxed" | "sorn"; dueDate: string | null },
): VehicleResult {
  return {
    registration: "AB12CDE",
    checkedAt: "2026-11-24T10:00:00Z",
    insurance: { status: "insured", policy },
    compliance: {
      status: "checked",
      compliant: true,
      checks: {
        insuranceValid: true,
        motValid: true,
        roadTaxPaid: true,
        noOutstandingFines: true,
      },
      details: { mot, tax, fines: { count: 0, totalPence: 0 } },
    },
  };
}

describe("dueDates", () => {
  it("gives cover's end, a valid MOT's expiry and a taxed vehicle's due date", () => {
    expect(
      dueDates(
        result(
          { status: "valid", expiry: "2027-03-01" },
          { status: "taxed", dueDate: "2026-12-01" },
        ),
      ),
    ).toEqual({
      insurance: "2026-12-20",
      mot: "2027-03-01",
      tax: "2026-12-01",
    });
  });

  it("leaves out an expired MOT, an exempt one, SORN and untaxed", () => {
    expect(
      dueDates(
        result(
          { status: "expired", expiry: "2026-10-01" },
          { status: "sorn", dueDate: null },
        ),
      ),
    ).toEqual({ insurance: "2026-12-20" });
    expect(dueDates(undefined)).toEqual({});
  });
});

describe("dueSoon", () => {
  it("lists what falls due within 30 days, soonest first", () => {
    expect(
      dueSoon(
        result(
          { status: "valid", expiry: "2026-11-24" },
          { status: "taxed", dueDate: "2026-12-01" },
        ),
        "2026-11-24",
      ),
    ).toEqual([
      { kind: "mot", date: "2026-11-24", daysLeft: 0 },
      { kind: "tax", date: "2026-12-01", daysLeft: 7 },
      { kind: "insurance", date: "2026-12-20", daysLeft: 26 },
    ]);
  });

  it("leaves out what is more than 30 days away", () => {
    expect(
      dueSoon(
        result(
          { status: "valid", expiry: "2026-12-25" },
          { status: "taxed", dueDate: "2027-01-01" },
        ),
        "2026-11-24",
      ).map((due) => due.kind),
    ).toEqual(["insurance"]);
  });
});
