import {
  BULK_ERRORS,
  bulkAnswer,
  BulkComplianceResultSchema,
  BulkResultSchema,
  type Policy,
} from "@vics/shared";
import { describe, expect, it } from "vitest";
import {
  bulkComplianceItem,
  bulkInsuranceItem,
  type BulkOutcome,
} from "./bulk.ts";
import type { ComplianceFacts } from "./compliance.ts";

const TODAY = "2026-03-10";
const vehicle = { make: "Ford", model: "Focus", year: 2015, color: "Blue" };
/** As an answer shows it: with the first registration (decision 041). */
const shown = { ...vehicle, firstRegistered: "2015-01-01" };
const cover = (validFrom: string, validTo: string): Policy => ({
  number: "P1",
  insurer: "Acorn Mutual",
  validFrom,
  validTo,
  type: "Comprehensive",
});
const facts = (changes: Partial<ComplianceFacts> = {}) => ({
  firstRegistered: "2015-01-01",
  policies: [cover("2025-06-01", "2026-05-31")],
  motTests: [{ testedOn: "2025-10-01", expiresOn: "2026-10-01" }],
  tax: { sorn: false, dueDate: "2026-08-01" },
  fines: [],
  vehicle,
  ...changes,
});
const found = (changes: Partial<ComplianceFacts> = {}): BulkOutcome => ({
  registration: "AB12CDE",
  facts: facts(changes),
});
const failed: BulkOutcome = {
  registration: "ZZ99ZZZ",
  error: BULK_ERRORS.notFound,
};

describe("bulkInsuranceItem", () => {
  it("an insured vehicle: insured, its current policy and the vehicle", () => {
    expect(bulkInsuranceItem(found(), TODAY)).toEqual({
      registration: "AB12CDE",
      insured: true,
      policy: cover("2025-06-01", "2026-05-31"),
      vehicle: shown,
    });
  });

  it.each([
    [
      "a lapsed policy",
      [cover("2024-01-01", "2025-01-31"), cover("2025-02-01", "2026-03-09")],
      cover("2025-02-01", "2026-03-09"),
    ],
    [
      "a policy that starts tomorrow",
      [cover("2026-03-11", "2027-03-10")],
      null,
    ],
    ["no policy at all", [], null],
  ])(
    "%s: not insured, no policy (only an insured item has one), the last lapsed one or null",
    (_case, policies, lastPolicy) => {
      expect(bulkInsuranceItem(found({ policies }), TODAY)).toEqual({
        registration: "AB12CDE",
        insured: false,
        lastPolicy,
        vehicle: shown,
      });
    },
  );

  it("a failed outcome: insured false and the error, nothing else", () => {
    expect(bulkInsuranceItem(failed, TODAY)).toEqual({
      registration: "ZZ99ZZZ",
      insured: false,
      error: "Vehicle not found",
    });
  });
});

describe("bulkComplianceItem", () => {
  it("the single check's verdict, details and vehicle", () => {
    const item = bulkComplianceItem(
      found({
        fines: [{ issuedOn: "2026-01-05", amountPence: 100, paid: false }],
      }),
      TODAY,
    );
    expect(item).toMatchObject({
      registration: "AB12CDE",
      compliant: false,
      checks: {
        insuranceValid: true,
        motValid: true,
        roadTaxPaid: true,
        noOutstandingFines: false,
      },
      details: { fines: { count: 1, totalPence: 100 } },
      vehicle: shown,
    });
    expect(item.error).toBeUndefined();
  });

  it("a failed outcome: not compliant, all four checks false, the error", () => {
    expect(
      bulkComplianceItem(
        { registration: "x!", error: BULK_ERRORS.invalid },
        TODAY,
      ),
    ).toEqual({
      registration: "x!",
      compliant: false,
      checks: {
        insuranceValid: false,
        motValid: false,
        roadTaxPaid: false,
        noOutstandingFines: false,
      },
      error: "Invalid registration format",
    });
  });
});

describe("bulkAnswer", () => {
  it.each([
    [[found(), failed, found(), failed, failed], 2, 3],
    [[failed], 0, 1],
    [[found()], 1, 0],
  ])("counts the items: %#", (outcomes, successful, failedCount) => {
    const insurance = bulkAnswer(
      outcomes.map((outcome) => bulkInsuranceItem(outcome, TODAY)),
    );
    expect(insurance).toMatchObject({
      processed: outcomes.length,
      successful,
      failed: failedCount,
    });
    // The shared schema's refinement agrees that the counts add up.
    expect(BulkResultSchema.safeParse(insurance).success).toBe(true);
    const compliance = bulkAnswer(
      outcomes.map((outcome) => bulkComplianceItem(outcome, TODAY)),
    );
    expect(BulkComplianceResultSchema.safeParse(compliance).success).toBe(true);
    expect(compliance.failed).toBe(failedCount);
  });
});
