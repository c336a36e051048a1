import { describe, expect, it } from "vitest";
import type { ComplianceDetails } from "@vics/shared";
import { insuranceFixture, policyFixture } from "../../../testing/fixtures.ts";
import {
  finesReason,
  insuranceDetailsOf,
  insuranceReason,
  motReason,
  taxReason,
} from "./check-reasons.ts";

describe("motReason", () => {
  it.each<[ComplianceDetails["mot"], string]>([
    [{ status: "valid", expiry: "2027-03-03" }, "MOT valid until 3 March 2027"],
    [{ status: "valid", expiry: null }, "MOT valid"],
    [
      { status: "expired", expiry: "2026-03-03" },
      "MOT expired on 3 March 2026",
    ],
    [{ status: "expired", expiry: null }, "MOT expired"],
    [{ status: "exempt", expiry: null }, "MOT not yet due: under 3 years old"],
    [
      { status: "exempt", expiry: "2027-01-01" },
      "MOT not yet due: under 3 years old",
    ],
    [{ status: "none", expiry: null }, "No MOT on record"],
  ])("%o -> %s", (mot, expected) => {
    expect(motReason(mot)).toBe(expected);
  });
});

describe("taxReason", () => {
  it.each<[ComplianceDetails["tax"], string]>([
    [{ status: "taxed", dueDate: "2027-04-01" }, "Taxed until 1 April 2027"],
    [{ status: "taxed", dueDate: null }, "Taxed"],
    [{ status: "sorn", dueDate: null }, "SORN: not taxed for road use"],
    [{ status: "sorn", dueDate: "2026-01-31" }, "SORN: not taxed for road use"],
    // dueDate is the last day taxed: untaxed from the next day, across month and year ends.
    [{ status: "untaxed", dueDate: "2026-04-30" }, "Untaxed since 1 May 2026"],
    [
      { status: "untaxed", dueDate: "2026-12-31" },
      "Untaxed since 1 January 2027",
    ],
    [
      { status: "untaxed", dueDate: "2024-02-28" },
      "Untaxed since 29 February 2024",
    ],
    [{ status: "untaxed", dueDate: null }, "Not taxed"],
  ])("%o -> %s", (tax, expected) => {
    expect(taxReason(tax)).toBe(expected);
  });
});

describe("finesReason", () => {
  it.each<[ComplianceDetails["fines"], string]>([
    [{ count: 0, totalPence: 0 }, "No unpaid fines"],
    [{ count: 1, totalPence: 6_000 }, "1 unpaid fine, £60 total"],
    [{ count: 2, totalPence: 15_000 }, "2 unpaid fines, £150 total"],
    [{ count: 3, totalPence: 12_550 }, "3 unpaid fines, £125.50 total"],
    [
      { count: 12, totalPence: 123_456_700 },
      "12 unpaid fines, £1,234,567 total",
    ],
  ])("%o -> %s", (fines, expected) => {
    expect(finesReason(fines)).toBe(expected);
  });
});

describe("insuranceReason", () => {
  const today = "2026-11-22";
  const insured = insuranceFixture({
    policy: policyFixture({ validTo: "2027-05-12" }),
  });
  const lapsed = insuranceFixture({
    insured: false,
    policy: policyFixture({ validTo: "2026-07-09" }),
  });
  const never = insuranceFixture({ insured: false, policy: null });

  it.each([
    ["insured, with its policy", true, insured, "Insured until 12 May 2027"],
    [
      "not insured, lapsed policy",
      false,
      lapsed,
      "Insurance lapsed on 9 July 2026",
    ],
    ["not insured, never a policy", false, never, "No insurance on record"],
    ["no insurance record", true, undefined, undefined],
    ["no insurance record, failing", false, undefined, undefined],
    ["record disagrees with the check", false, insured, undefined],
    ["record disagrees the other way", true, never, undefined],
  ])("from the insurance record, %s -> %s", (_, valid, record, expected) => {
    expect(
      insuranceReason(valid, record && insuranceDetailsOf(record), today),
    ).toBe(expected);
  });

  it.each([
    [
      "insured",
      true,
      { status: "insured", validTo: "2027-05-12" },
      "Insured until 12 May 2027",
    ],
    [
      "insured, 31 days left: not yet expiring soon",
      true,
      { status: "insured", validTo: "2026-12-23" },
      "Insured until 23 December 2026",
    ],
    [
      "insured, 30 days left",
      true,
      { status: "insured", validTo: "2026-12-22" },
      "Insured until 22 December 2026 (ends in 30 days)",
    ],
    [
      "insured, 10 days left",
      true,
      { status: "insured", validTo: "2026-12-02" },
      "Insured until 2 December 2026 (ends in 10 days)",
    ],
    [
      "insured, ends tomorrow",
      true,
      { status: "insured", validTo: "2026-11-23" },
      "Insured until 23 November 2026 (ends tomorrow)",
    ],
    [
      "insured, ends today",
      true,
      { status: "insured", validTo: "2026-11-22" },
      "Insured until 22 November 2026 (ends today)",
    ],
    [
      "insured, no end date",
      true,
      { status: "insured", validTo: null },
      undefined,
    ],
    [
      "lapsed",
      false,
      { status: "lapsed", validTo: "2026-07-09" },
      "Insurance lapsed on 9 July 2026",
    ],
    [
      "lapsed, no date",
      false,
      { status: "lapsed", validTo: null },
      "Insurance lapsed",
    ],
    [
      "never insured",
      false,
      { status: "none", validTo: null },
      "No insurance on record",
    ],
    [
      "details disagree with the check",
      true,
      { status: "lapsed", validTo: "2026-07-09" },
      undefined,
    ],
  ] as const)(
    "from the record's details, %s -> %s",
    (_, valid, details, expected) => {
      expect(insuranceReason(valid, details, today)).toBe(expected);
    },
  );
});
