import { describe, expect, it } from "vitest";
import { insuranceFixture, policyFixture } from "../../../testing/fixtures.ts";
import { complianceFixture } from "../../../testing/compliance-fixtures.ts";
import {
  checkBadges,
  verdictSummary,
  type CheckBadge,
} from "./check-badges.ts";

const failing = (...ids: CheckBadge["id"][]): CheckBadge[] =>
  (["insurance", "mot", "tax", "fines"] as const).map((id) => ({
    id,
    name: {
      insurance: "Insurance",
      mot: "MOT",
      tax: "Road tax",
      fines: "Fines",
    }[id],
    passed: !ids.includes(id),
  }));

describe("verdictSummary", () => {
  it.each([
    [[], "All 4 checks passed."],
    [["mot"], "1 of 4 checks failed: MOT."],
    [["mot", "tax"], "2 of 4 checks failed: MOT and Road tax."],
    [
      ["insurance", "tax", "fines"],
      "3 of 4 checks failed: Insurance, Road tax and Fines.",
    ],
    [
      ["insurance", "mot", "tax", "fines"],
      "4 of 4 checks failed: Insurance, MOT, Road tax and Fines.",
    ],
  ] as const)("failing %o -> %s", (ids, expected) => {
    expect(verdictSummary(failing(...ids))).toBe(expected);
  });
});

describe("checkBadges", () => {
  it("gives the four checks in order, each with its reason", () => {
    const record = complianceFixture({
      checks: { motValid: false, noOutstandingFines: false },
      details: {
        mot: { status: "expired", expiry: "2026-03-03" },
        fines: { count: 2, totalPence: 15_000 },
      },
    });
    const insurance = insuranceFixture({
      policy: policyFixture({ validTo: "2027-05-12" }),
    });
    expect(checkBadges(record, "2026-11-22", insurance)).toEqual([
      {
        id: "insurance",
        name: "Insurance",
        passed: true,
        reason: "Insured until 12 May 2027",
      },
      {
        id: "mot",
        name: "MOT",
        passed: false,
        reason: "MOT expired on 3 March 2026",
      },
      {
        id: "tax",
        name: "Road tax",
        passed: true,
        reason: "Taxed until 1 April 2027",
      },
      {
        id: "fines",
        name: "Fines",
        passed: false,
        reason: "2 unpaid fines, £150 total",
      },
    ]);
  });

  it("without details or an insurance record: pass or fail only", () => {
    const record = complianceFixture({
      checks: { roadTaxPaid: false },
      details: null,
    });
    expect(checkBadges(record, "2026-11-22")).toEqual([
      { id: "insurance", name: "Insurance", passed: true, reason: undefined },
      { id: "mot", name: "MOT", passed: true, reason: undefined },
      { id: "tax", name: "Road tax", passed: false, reason: undefined },
      { id: "fines", name: "Fines", passed: true, reason: undefined },
    ]);
  });
});
