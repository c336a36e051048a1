import { describe, expect, it } from "vitest";
import { BULK_ERRORS } from "@vics/shared";
import {
  complianceOutcomes,
  insuranceOutcomes,
  RETRY,
} from "./bulk-outcomes.ts";
import {
  allChecks,
  bulkBody,
  bulkComplianceBody,
  CHECKS_PASS,
  policyFixture,
  VEHICLE,
} from "../testing/answers.ts";

describe("insuranceOutcomes", () => {
  it("maps each item to its outcome, in the order sent", () => {
    const policy = policyFixture();
    const verdict = insuranceOutcomes(
      ["A1", "B2", "C3", "D4", "E5", "F6"],
      bulkBody([
        { registration: "A1", insured: true, policy, vehicle: VEHICLE },
        { registration: "B2", insured: false },
        { registration: "C3", insured: false, error: BULK_ERRORS.notFound },
        { registration: "D4", insured: false, error: BULK_ERRORS.invalid },
        { registration: "E5", insured: false, error: BULK_ERRORS.unavailable },
        { registration: "F6", insured: false, error: "Vehicle exported" },
      ]),
    );
    expect(verdict).toEqual({
      ok: true,
      outcomes: [
        { status: "insured", policy, vehicle: VEHICLE },
        { status: "not-insured" },
        { status: "not-found" },
        { status: "invalid" },
        RETRY,
        { status: "not-checked", reason: "Vehicle exported" },
      ],
    });
  });

  it("keeps the last lapsed policy (extension) apart from an insured policy, and null as never insured", () => {
    const lapsed = policyFixture({ validTo: "2026-11-03" });
    const verdict = insuranceOutcomes(
      ["A1", "B2", "C3"],
      bulkBody([
        { registration: "A1", insured: false, lastPolicy: lapsed },
        { registration: "B2", insured: false, lastPolicy: null },
        { registration: "C3", insured: false },
      ]),
    );
    expect(verdict).toEqual({
      ok: true,
      outcomes: [
        { status: "not-insured", lastPolicy: lapsed },
        { status: "not-insured", lastPolicy: null },
        // An upstream without the extension: whether there ever was a policy is not known.
        { status: "not-insured" },
      ],
    });
  });

  it.each([
    [
      "an item for another registration",
      [{ registration: "B2", insured: false }],
    ],
    ["a missing item", []],
    [
      "an insured item with an error",
      [
        {
          registration: "A1",
          insured: true,
          policy: policyFixture(),
          error: "x",
        },
      ],
    ],
  ])("calls %s a broken contract", (_, results) => {
    expect(insuranceOutcomes(["A1"], bulkBody(results)).ok).toBe(false);
  });
});

describe("complianceOutcomes", () => {
  it("maps checked and failed items", () => {
    const verdict = complianceOutcomes(
      ["A1", "B2"],
      bulkComplianceBody([
        { registration: "A1", compliant: true, checks: CHECKS_PASS },
        {
          registration: "B2",
          compliant: false,
          checks: allChecks(false),
          error: BULK_ERRORS.notFound,
        },
      ]),
    );
    expect(verdict).toEqual({
      ok: true,
      outcomes: [
        {
          compliance: {
            status: "checked",
            compliant: true,
            checks: CHECKS_PASS,
          },
        },
        {
          compliance: { status: "not-found" },
          insurance: { status: "not-found" },
        },
      ],
    });
  });

  it("takes the insurance outcome from the policy extension (decision 021)", () => {
    const policy = policyFixture();
    const lastPolicy = policyFixture({ validTo: "2026-11-04" });
    const notInsured = { ...CHECKS_PASS, insuranceValid: false };
    const verdict = complianceOutcomes(
      ["A1", "B2", "C3"],
      bulkComplianceBody([
        {
          registration: "A1",
          compliant: true,
          checks: CHECKS_PASS,
          policy,
          vehicle: VEHICLE,
        },
        {
          registration: "B2",
          compliant: false,
          checks: notInsured,
          lastPolicy,
        },
        {
          registration: "C3",
          compliant: false,
          checks: notInsured,
          lastPolicy: null,
        },
      ]),
    );
    expect(
      verdict.ok && verdict.outcomes.map((o) => o !== RETRY && o.insurance),
    ).toEqual([
      { status: "insured", policy, vehicle: VEHICLE },
      { status: "not-insured", lastPolicy },
      { status: "not-insured", lastPolicy: null },
    ]);
  });

  it.each([
    ["an insured item with a last policy", CHECKS_PASS, { lastPolicy: null }],
    [
      "an uninsured item with a current policy",
      { ...CHECKS_PASS, insuranceValid: false },
      { policy: policyFixture() },
    ],
  ])("calls %s a broken contract", (_case, checks, policies) => {
    const compliant = checks.insuranceValid;
    const verdict = complianceOutcomes(
      ["A1"],
      bulkComplianceBody([
        { registration: "A1", compliant, checks, ...policies },
      ]),
    );
    expect(verdict.ok).toBe(false);
  });

  it("keeps each item's fact sources and the answer's tax and MOT dates on its outcome (issue 35)", () => {
    const factSources = {
      tax: { source: "dvla-ves", asOf: "2026-11-29T10:02:00.000Z" },
      mot: {
        source: "dvsa-mot-history",
        asOf: "2026-11-28T09:15:00.000Z",
        stale: true,
      },
    } as const;
    const verdict = complianceOutcomes(["A1", "B2"], {
      ...bulkComplianceBody([
        {
          registration: "A1",
          compliant: true,
          checks: CHECKS_PASS,
          factSources,
        },
        { registration: "B2", compliant: true, checks: CHECKS_PASS },
      ]),
      dataAsOf: {
        insurance: "2026-11-28T06:00:00.000Z",
        tax: "2026-11-28T06:00:00.000Z",
        mot: "2026-11-27T06:00:00.000Z",
      },
    });
    const recordsAsOf = {
      tax: "2026-11-28T06:00:00.000Z",
      mot: "2026-11-27T06:00:00.000Z",
    };
    expect(
      verdict.ok && verdict.outcomes.map((o) => o !== RETRY && o.compliance),
    ).toEqual([
      {
        status: "checked",
        compliant: true,
        checks: CHECKS_PASS,
        factSources,
        recordsAsOf,
      },
      { status: "checked", compliant: true, checks: CHECKS_PASS, recordsAsOf },
    ]);
  });

  it("calls 'compliant' with a failing check a broken contract", () => {
    const verdict = complianceOutcomes(
      ["A1"],
      bulkComplianceBody([
        {
          registration: "A1",
          compliant: true,
          checks: { ...CHECKS_PASS, motValid: false },
        },
      ]),
    );
    expect(verdict.ok).toBe(false);
  });
});
