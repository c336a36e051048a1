import type { ComplianceDetails } from "@vics/shared";
import { describe, expect, it } from "vitest";
import type { ComplianceOutcome } from "../fleet-types.ts";
import {
  COMPLIANCE_COLUMNS,
  complianceCells,
  finesReason,
  insuranceReason,
  motReason,
  taxReason,
} from "./compliance-cells.ts";

describe("reasons, with dates as YYYY-MM-DD", () => {
  it.each<[ComplianceDetails["mot"], string]>([
    [{ status: "valid", expiry: "2027-03-03" }, "MOT valid until 2027-03-03"],
    [{ status: "expired", expiry: "2026-07-10" }, "MOT expired on 2026-07-10"],
    [{ status: "expired", expiry: null }, "MOT expired"],
    [{ status: "exempt", expiry: null }, "MOT not yet due: under 3 years old"],
    [{ status: "none", expiry: null }, "No MOT on record"],
  ])("MOT %o: %s", (mot, reason) => {
    expect(motReason(mot)).toBe(reason);
  });

  it.each<[ComplianceDetails["tax"], string]>([
    [{ status: "taxed", dueDate: "2027-04-01" }, "Taxed until 2027-04-01"],
    [{ status: "sorn", dueDate: null }, "SORN: not taxed for road use"],
    // dueDate is the last day taxed, so untaxed from the day after, across a year's end.
    [{ status: "untaxed", dueDate: "2026-12-31" }, "Untaxed since 2027-01-01"],
    [{ status: "untaxed", dueDate: null }, "Not taxed"],
  ])("tax %o: %s", (tax, reason) => {
    expect(taxReason(tax)).toBe(reason);
  });

  it.each<[ComplianceDetails["fines"], string]>([
    [{ count: 0, totalPence: 0 }, "No unpaid fines"],
    [{ count: 1, totalPence: 6050 }, "1 unpaid fine, £60.50 total"],
    [{ count: 2, totalPence: 15000 }, "2 unpaid fines, £150 total"],
  ])("fines %o: %s", (fines, reason) => {
    expect(finesReason(fines)).toBe(reason);
  });

  it.each<[boolean, ComplianceDetails["insurance"], string]>([
    [
      true,
      { status: "insured", validTo: "2027-06-30" },
      "Insured until 2027-06-30",
    ],
    [
      false,
      { status: "lapsed", validTo: "2026-11-03" },
      "Insurance lapsed on 2026-11-03",
    ],
    [false, { status: "none", validTo: null }, "No insurance on record"],
    // Details that disagree with the check (an older record) say nothing rather than mislead.
    [false, { status: "insured", validTo: "2027-06-30" }, ""],
    [true, undefined, ""],
  ])("insurance valid %s, %o: %j", (valid, insurance, reason) => {
    expect(insuranceReason(valid, insurance)).toBe(reason);
  });
});

describe("complianceCells", () => {
  it("gives the verdict, each check and its reason, in the columns' order", () => {
    const compliance: ComplianceOutcome = {
      status: "checked",
      compliant: false,
      checks: {
        insuranceValid: true,
        motValid: false,
        roadTaxPaid: true,
        noOutstandingFines: false,
      },
      details: {
        insurance: { status: "insured", validTo: "2027-06-30" },
        mot: { status: "expired", expiry: "2026-07-10" },
        tax: { status: "taxed", dueDate: "2027-04-01" },
        fines: { count: 2, totalPence: 15000 },
      },
    };
    const cells = complianceCells(compliance);
    expect(
      Object.fromEntries(
        COMPLIANCE_COLUMNS.map((name, index) => [name, cells[index]]),
      ),
    ).toEqual({
      Compliant: "No",
      "Insurance check": "Pass",
      "Insurance reason": "Insured until 2027-06-30",
      "MOT check": "Fail",
      "MOT reason": "MOT expired on 2026-07-10",
      "Road tax check": "Pass",
      "Road tax reason": "Taxed until 2027-04-01",
      "Fines check": "Fail",
      "Fines reason": "2 unpaid fines, £150 total",
    });
  });

  it("leaves the reasons blank when the service sent no details", () => {
    const cells = complianceCells({
      status: "checked",
      compliant: true,
      checks: {
        insuranceValid: true,
        motValid: true,
        roadTaxPaid: true,
        noOutstandingFines: true,
      },
    });
    expect(cells).toEqual([
      "Yes",
      "Pass",
      "",
      "Pass",
      "",
      "Pass",
      "",
      "Pass",
      "",
    ]);
  });

  it.each<[string, ComplianceOutcome | undefined]>([
    ["not asked", undefined],
    ["not found", { status: "not-found" }],
    [
      "not checked",
      { status: "not-checked", reason: "Temporarily unavailable" },
    ],
  ])("is blank when %s", (_name, compliance) => {
    expect(complianceCells(compliance)).toEqual(
      COMPLIANCE_COLUMNS.map(() => ""),
    );
  });
});
