import { describe, expect, it } from "vitest";
import type { ComplianceOutcome } from "../fleet-types.ts";
import { COMPLIANCE_COLUMNS, complianceCells } from "./compliance-cells.ts";

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

  it("dates reasons YYYY-MM-DD, and says nothing where the details disagree with the check", () => {
    const cells = complianceCells({
      status: "checked",
      compliant: false,
      checks: {
        insuranceValid: false,
        motValid: true,
        roadTaxPaid: false,
        noOutstandingFines: true,
      },
      details: {
        insurance: { status: "insured", validTo: "2027-06-30" },
        mot: { status: "valid", expiry: "2027-03-03" },
        tax: { status: "untaxed", dueDate: "2026-12-31" },
        fines: { count: 0, totalPence: 0 },
      },
    });
    expect(cells).toEqual([
      "No",
      "Fail",
      "",
      "Pass",
      "MOT valid until 2027-03-03",
      "Fail",
      "Untaxed since 2027-01-01",
      "Pass",
      "No unpaid fines",
    ]);
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
