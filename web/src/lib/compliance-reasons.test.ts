import type { ComplianceDetails } from "@vics/shared";
import { describe, expect, it } from "vitest";
import {
  finesReason,
  insuranceReason,
  motReason,
  taxReason,
  type InsuranceDetails,
} from "./compliance-reasons.ts";

/** A caller's own date wording, to show that every date in a reason goes through it. */
const inWords = (isoDate: string) => `<${isoDate}>`;

describe("motReason", () => {
  it.each<[ComplianceDetails["mot"], string, string]>([
    [
      { status: "valid", expiry: "2027-03-03" },
      "MOT valid until 2027-03-03",
      "MOT valid until <2027-03-03>",
    ],
    [{ status: "valid", expiry: null }, "MOT valid", "MOT valid"],
    [
      { status: "expired", expiry: "2026-07-10" },
      "MOT expired on 2026-07-10",
      "MOT expired on <2026-07-10>",
    ],
    [{ status: "expired", expiry: null }, "MOT expired", "MOT expired"],
    [
      { status: "exempt", expiry: null },
      "MOT not yet due: under 3 years old",
      "MOT not yet due: under 3 years old",
    ],
    [{ status: "none", expiry: null }, "No MOT on record", "No MOT on record"],
  ])("%o: %s", (mot, iso, worded) => {
    expect(motReason(mot)).toBe(iso);
    expect(motReason(mot, inWords)).toBe(worded);
  });
});

describe("taxReason", () => {
  it.each<[ComplianceDetails["tax"], string]>([
    [{ status: "taxed", dueDate: "2027-04-01" }, "Taxed until 2027-04-01"],
    [{ status: "taxed", dueDate: null }, "Taxed"],
    [{ status: "sorn", dueDate: "2026-01-31" }, "SORN: not taxed for road use"],
    // dueDate is the last day taxed, so untaxed from the day after, across a year's end.
    [{ status: "untaxed", dueDate: "2026-12-31" }, "Untaxed since 2027-01-01"],
    [{ status: "untaxed", dueDate: "2024-02-28" }, "Untaxed since 2024-02-29"],
    [{ status: "untaxed", dueDate: null }, "Not taxed"],
  ])("%o: %s", (tax, reason) => {
    expect(taxReason(tax)).toBe(reason);
  });

  it("writes the day after the due date in the caller's words", () => {
    expect(
      taxReason({ status: "untaxed", dueDate: "2026-04-30" }, inWords),
    ).toBe("Untaxed since <2026-05-01>");
  });
});

describe("finesReason", () => {
  it.each<[ComplianceDetails["fines"], string]>([
    [{ count: 0, totalPence: 0 }, "No unpaid fines"],
    [{ count: 1, totalPence: 6050 }, "1 unpaid fine, £60.50 total"],
    [{ count: 2, totalPence: 15000 }, "2 unpaid fines, £150 total"],
    [
      { count: 12, totalPence: 123_456_700 },
      "12 unpaid fines, £1,234,567 total",
    ],
  ])("%o: %s", (fines, reason) => {
    expect(finesReason(fines)).toBe(reason);
  });
});

describe("insuranceReason", () => {
  it.each<[boolean, InsuranceDetails | undefined, string | undefined]>([
    [
      true,
      { status: "insured", validTo: "2027-06-30" },
      "Insured until 2027-06-30",
    ],
    [true, { status: "insured", validTo: null }, undefined],
    [
      false,
      { status: "lapsed", validTo: "2026-11-03" },
      "Insurance lapsed on 2026-11-03",
    ],
    [false, { status: "lapsed", validTo: null }, "Insurance lapsed"],
    [false, { status: "none", validTo: null }, "No insurance on record"],
    // Details that disagree with the check (an older record) say nothing rather than mislead.
    [false, { status: "insured", validTo: "2027-06-30" }, undefined],
    [true, { status: "none", validTo: null }, undefined],
    [true, undefined, undefined],
  ])("valid %s, %o: %j", (valid, insurance, reason) => {
    expect(insuranceReason(valid, insurance)).toBe(reason);
  });

  it("writes its date in the caller's words", () => {
    expect(
      insuranceReason(
        true,
        { status: "insured", validTo: "2027-06-30" },
        inWords,
      ),
    ).toBe("Insured until <2027-06-30>");
  });
});
