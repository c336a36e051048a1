import type { Policy } from "@vics/shared";
import { describe, expect, it } from "vitest";
import {
  insuranceDetails,
  type ComplianceFacts,
  complianceVerdict,
  fineDetails,
  motDetails,
  taxDetails,
} from "./compliance.ts";
import { insuranceStatus } from "./insurance.ts";

const TODAY = "2026-03-10";

describe("motDetails", () => {
  it.each([
    ["under 3 years, no MOT yet", "2023-03-11", [], "exempt", null],
    ["3rd anniversary is today: due, and none", "2023-03-10", [], "none", null],
    [
      "3rd anniversary today with a fresh MOT",
      "2023-03-10",
      ["2027-03-09"],
      "valid",
      "2027-03-09",
    ],
    ["3 years and 10 days old, never tested", "2023-02-28", [], "none", null],
    [
      "expiry today is still valid",
      "2015-01-01",
      ["2026-03-10"],
      "valid",
      "2026-03-10",
    ],
    [
      "expired yesterday",
      "2015-01-01",
      ["2026-03-09"],
      "expired",
      "2026-03-09",
    ],
    [
      "the latest certificate counts",
      "2015-01-01",
      ["2026-12-01", "2025-12-01"],
      "valid",
      "2026-12-01",
    ],
    ["old car never tested", "2015-01-01", [], "none", null],
  ] as const)("%s", (_label, firstRegistered, expiries, status, expiry) => {
    const tests = expiries.map((expiresOn) => ({
      testedOn: `${Number(expiresOn.slice(0, 4)) - 1}${expiresOn.slice(4)}`,
      expiresOn,
    }));
    expect(motDetails(firstRegistered, tests, TODAY)).toEqual({
      status,
      expiry,
    });
  });

  it("on a past date, counts only the certificates tested by then", () => {
    const tests = [
      { testedOn: "2024-03-01", expiresOn: "2025-03-01" },
      { testedOn: "2025-03-20", expiresOn: "2026-03-19" },
    ];
    expect(motDetails("2015-01-01", tests, "2025-03-10")).toEqual({
      status: "expired",
      expiry: "2025-03-01",
    });
    expect(motDetails("2015-01-01", tests, "2025-03-20")).toEqual({
      status: "valid",
      expiry: "2026-03-19",
    });
    expect(motDetails("2015-01-01", tests, "2024-02-29")).toEqual({
      status: "none",
      expiry: null,
    });
  });

  it("treats a 29 February first registration as due on 1 March three years on", () => {
    expect(motDetails("2024-02-29", [], "2027-02-28").status).toBe("exempt");
    expect(motDetails("2024-02-29", [], "2027-03-01").status).toBe("none");
  });
});

describe("taxDetails", () => {
  it.each([
    ["taxed until later", { sorn: false, dueDate: "2026-09-01" }, "taxed"],
    [
      "due today is still taxed",
      { sorn: false, dueDate: "2026-03-10" },
      "taxed",
    ],
    [
      "due yesterday is untaxed",
      { sorn: false, dueDate: "2026-03-09" },
      "untaxed",
    ],
    ["never taxed", { sorn: false, dueDate: null }, "untaxed"],
    ["SORN", { sorn: true, dueDate: null }, "sorn"],
    [
      "SORN wins over a future due date",
      { sorn: true, dueDate: "2026-09-01" },
      "sorn",
    ],
  ] as const)("%s", (_label, tax, status) => {
    expect(taxDetails(tax, TODAY)).toEqual({ status, dueDate: tax.dueDate });
  });
});

describe("fineDetails", () => {
  it.each([
    ["no fines", [], 0, 0],
    [
      "paid fines do not count",
      [{ issuedOn: "2026-01-05", amountPence: 10_000, paid: true }],
      0,
      0,
    ],
    [
      "unpaid fines are counted and summed",
      [
        { issuedOn: "2026-01-05", amountPence: 10_000, paid: false },
        { issuedOn: "2026-02-05", amountPence: 5_000, paid: false },
        { issuedOn: "2025-01-05", amountPence: 6_000, paid: true },
      ],
      2,
      15_000,
    ],
    [
      "a fine issued after the date does not count on it",
      [
        { issuedOn: "2026-03-10", amountPence: 10_000, paid: false },
        { issuedOn: "2026-03-11", amountPence: 5_000, paid: false },
      ],
      1,
      10_000,
    ],
  ] as const)("%s", (_label, fines, count, totalPence) => {
    expect(fineDetails(fines, TODAY)).toEqual({ count, totalPence });
  });
});

describe("insuranceDetails", () => {
  const today = "2026-06-15";
  const cover = (validFrom: string, validTo: string): Policy => ({
    number: "P1",
    insurer: "Acme",
    type: "Comprehensive",
    validFrom,
    validTo,
  });
  it.each([
    [
      "current policy",
      [cover("2026-01-01", "2026-12-31")],
      "insured",
      "2026-12-31",
    ],
    [
      "ends today",
      [cover("2025-06-16", "2026-06-15")],
      "insured",
      "2026-06-15",
    ],
    [
      "ended yesterday",
      [cover("2025-06-15", "2026-06-14")],
      "lapsed",
      "2026-06-14",
    ],
    ["starts tomorrow only", [cover("2026-06-16", "2027-06-15")], "none", null],
    ["never insured", [], "none", null],
  ] as const)("%s -> %s", (_case, policies, status, validTo) => {
    expect(insuranceDetails(insuranceStatus(policies, today))).toEqual({
      status,
      validTo,
    });
  });
});

describe("complianceVerdict", () => {
  const cover: Policy = {
    number: "P1",
    insurer: "Acorn Mutual",
    validFrom: "2025-06-01",
    validTo: "2026-05-31",
    type: "Comprehensive",
  };
  const good: ComplianceFacts = {
    firstRegistered: "2015-01-01",
    policies: [cover],
    motTests: [{ testedOn: "2025-10-01", expiresOn: "2026-10-01" }],
    tax: { sorn: false, dueDate: "2026-08-01" },
    fines: [],
  };

  it.each([
    ["all four pass", {}, [true, true, true, true]],
    [
      "lapsed cover",
      { policies: [{ ...cover, validTo: "2026-03-09" }] },
      [false, true, true, true],
    ],
    [
      "cover starting today",
      { policies: [{ ...cover, validFrom: TODAY }] },
      [true, true, true, true],
    ],
    [
      "cover ending today",
      { policies: [{ ...cover, validTo: TODAY }] },
      [true, true, true, true],
    ],
    [
      "MOT expired",
      { motTests: [{ testedOn: "2025-01-01", expiresOn: "2026-01-01" }] },
      [true, false, true, true],
    ],
    [
      "MOT exempt counts as valid",
      { firstRegistered: "2024-01-01", motTests: [] },
      [true, true, true, true],
    ],
    ["SORN", { tax: { sorn: true, dueDate: null } }, [true, true, false, true]],
    [
      "untaxed",
      { tax: { sorn: false, dueDate: "2026-01-01" } },
      [true, true, false, true],
    ],
    [
      "an unpaid fine",
      { fines: [{ issuedOn: "2026-01-05", amountPence: 100, paid: false }] },
      [true, true, true, false],
    ],
    [
      "a paid fine",
      { fines: [{ issuedOn: "2026-01-05", amountPence: 100, paid: true }] },
      [true, true, true, true],
    ],
  ] as const)(
    "%s",
    (
      _label,
      changes,
      [insuranceValid, motValid, roadTaxPaid, noOutstandingFines],
    ) => {
      const verdict = complianceVerdict({ ...good, ...changes }, TODAY);
      expect(verdict.checks).toEqual({
        insuranceValid,
        motValid,
        roadTaxPaid,
        noOutstandingFines,
      });
      expect(verdict.compliant).toBe(
        insuranceValid && motValid && roadTaxPaid && noOutstandingFines,
      );
    },
  );
});
