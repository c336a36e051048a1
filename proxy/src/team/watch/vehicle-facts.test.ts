import { describe, expect, it } from "vitest";
import type { VehicleResult } from "@vics/fleet";
import { vehicleFacts } from "./vehicle-facts.ts";
import { timelineEntries } from "./vehicle-timeline.ts";

const policy = {
  number: "POL-1",
  insurer: "Northwind Mutual",
  type: "Comprehensive",
  validFrom: "2026-01-01",
  validTo: "2026-12-31",
};
const vehicle = { make: "Ford", model: "Focus", year: 2026, color: "Blue" };
const checks = {
  insuranceValid: true,
  motValid: true,
  roadTaxPaid: true,
  noOutstandingFines: false,
};
const details = {
  mot: { status: "exempt" as const, expiry: null },
  tax: { status: "taxed" as const, dueDate: "2027-03-01" },
  fines: { count: 1, totalPence: 10_000 },
};
const result = (part: Partial<VehicleResult>): VehicleResult => ({
  registration: "AB12CDE",
  checkedAt: "2026-11-27T06:00:00.000Z",
  insurance: { status: "insured", policy },
  ...part,
});
const TODAY = "2026-11-27";

describe("vehicleFacts", () => {
  it("keeps the policy, MOT, tax and fines of an answered re-check", () => {
    expect(
      vehicleFacts(
        result({
          compliance: { status: "checked", compliant: false, checks, details },
        }),
        TODAY,
      ),
    ).toEqual({
      found: true,
      insurance: {
        status: "insured",
        policy: {
          number: "POL-1",
          insurer: "Northwind Mutual",
          validFrom: "2026-01-01",
          validTo: "2026-12-31",
        },
      },
      ...details,
    });
  });

  it("names the live register that gave the tax or MOT; a change of source alone is no change on the timeline", () => {
    const fetched = vehicleFacts(
      result({
        compliance: {
          status: "checked",
          compliant: false,
          checks,
          details,
          factSources: {
            tax: { source: "dvla-ves", asOf: "2026-11-27T05:00:00.000Z" },
          },
        },
      }),
      TODAY,
    );
    expect(fetched?.tax).toEqual({
      status: "taxed",
      dueDate: "2027-03-01",
      source: "dvla-ves",
    });
    // The MOT came from VICS's records: no source, and no instant either way.
    expect(fetched?.mot).toEqual(details.mot);
    const imported = vehicleFacts(
      result({
        compliance: { status: "checked", compliant: false, checks, details },
      }),
      TODAY,
    );
    // The register confirms the import's dates: nothing to show, either way round.
    expect(timelineEntries(imported, fetched!)).toEqual([]);
    expect(timelineEntries(fetched, imported!)).toEqual([]);
  });

  it("shows both sides with their sources when a register disagrees with an imported fact", () => {
    const imported = vehicleFacts(
      result({
        compliance: { status: "checked", compliant: false, checks, details },
      }),
      TODAY,
    );
    const fetched = vehicleFacts(
      result({
        compliance: {
          status: "checked",
          compliant: false,
          checks: { ...checks, roadTaxPaid: false },
          details: { ...details, tax: { status: "sorn", dueDate: null } },
          factSources: {
            tax: { source: "dvla-ves", asOf: "2026-11-28T05:00:00.000Z" },
          },
        },
      }),
      TODAY,
    );
    expect(timelineEntries(imported, fetched!)).toEqual([
      {
        area: "tax",
        before: { status: "taxed", dueDate: "2027-03-01" },
        after: { status: "sorn", dueDate: null, source: "dvla-ves" },
      },
    ]);
  });

  it("has no facts for a re-check not answered, so nothing about the vehicle changes", () => {
    expect(
      vehicleFacts(
        result({ insurance: { status: "not-checked", reason: "No answer" } }),
        TODAY,
      ),
    ).toBeUndefined();
    expect(
      vehicleFacts(
        result({ compliance: { status: "not-checked", reason: "No answer" } }),
        TODAY,
      ),
    ).toBeUndefined();
  });

  it("says 'not found' when either answer does", () => {
    expect(
      vehicleFacts(result({ insurance: { status: "not-found" } }), TODAY),
    ).toEqual({ found: false });
  });

  it("is 'pending' for a vehicle registered in the last 14 days with no policy ever, 'not insured' after", () => {
    const uninsured = (firstRegistered: string) =>
      vehicleFacts(
        result({
          insurance: {
            status: "not-insured",
            lastPolicy: null,
            vehicle: { ...vehicle, firstRegistered },
          },
        }),
        TODAY,
      )?.insurance;
    expect(uninsured("2026-11-13")).toEqual({
      status: "pending",
      firstRegistered: "2026-11-13",
    });
    expect(uninsured("2026-11-12")).toEqual({
      status: "not-insured",
      lastPolicy: null,
    });
  });

  it("keeps 'none ever' (null) apart from 'the upstream did not say' (absent)", () => {
    const notInsured = (
      insurance: Extract<VehicleResult["insurance"], { status: "not-insured" }>,
    ) => vehicleFacts(result({ insurance }), TODAY)?.insurance;
    const told = notInsured({
      status: "not-insured",
      lastPolicy: { ...policy, validTo: "2026-11-19" },
    });
    expect(told).toStrictEqual({
      status: "not-insured",
      lastPolicy: {
        number: "POL-1",
        insurer: "Northwind Mutual",
        validFrom: "2026-01-01",
        validTo: "2026-11-19",
      },
    });
    expect(
      notInsured({ status: "not-insured", lastPolicy: null }),
    ).toStrictEqual({ status: "not-insured", lastPolicy: null });
    // Not told: no lastPolicy at all, not a null that would read "never insured".
    const notTold = notInsured({ status: "not-insured" });
    expect(notTold).toStrictEqual({ status: "not-insured" });
    expect(notTold).not.toHaveProperty("lastPolicy");
  });

  it("does not call a new vehicle 'pending' when the upstream did not say it never had a policy", () => {
    expect(
      vehicleFacts(
        result({
          insurance: {
            status: "not-insured",
            vehicle: { ...vehicle, firstRegistered: "2026-11-20" },
          },
        }),
        TODAY,
      )?.insurance,
    ).toStrictEqual({ status: "not-insured" });
  });
});
