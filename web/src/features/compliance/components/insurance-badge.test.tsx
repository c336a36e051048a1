// The Insurance badge's reason: from the record's own details.insurance (decision 008), or
// from the insurance check when an older service sends none.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import { insuranceFixture, policyFixture } from "../../../testing/fixtures.ts";
import {
  json,
  serveCompliance,
  serveInsurance,
} from "../../../testing/api-handlers.ts";
import { renderRoute } from "../../../testing/render-route.tsx";
import {
  CHECKED_AT,
  complianceFixture,
} from "../../../testing/compliance-fixtures.ts";

// "ends in 10 days" is counted from today: fix it.
beforeEach(() => {
  vi.setSystemTime(CHECKED_AT);
});

/** The Insurance badge's words: "Insurance Pass Insured until 12 May 2027". */
function insuranceBadgeWords(): string {
  const list = screen.getByRole("list", { name: "Checks" });
  const badge = within(list)
    .getByRole("heading", { level: 3, name: "Insurance" })
    .closest("li") as HTMLElement;
  return [...badge.children].map((child) => child.textContent).join(" ");
}

describe("the insurance badge", () => {
  const vehicle = { make: "Tesla", model: "Model 3", year: 2026, color: "Red" };

  it.each([
    [
      "insured",
      { status: "insured", validTo: "2027-05-12" },
      "Insurance Pass Insured until 12 May 2027",
    ],
    [
      "insured, ending within 30 days: says when, in words",
      { status: "insured", validTo: "2026-12-02" },
      "Insurance Pass Insured until 2 December 2026 (ends in 10 days)",
    ],
    [
      "lapsed",
      { status: "lapsed", validTo: "2026-07-09" },
      "Insurance Fail Insurance lapsed on 9 July 2026",
    ],
    [
      "never insured",
      { status: "none", validTo: null },
      "Insurance Fail No insurance on record",
    ],
  ] as const)(
    "from the record's own details, %s",
    async (_, insurance, expected) => {
      const record = complianceFixture({
        vehicle,
        checks: { insuranceValid: insurance.status === "insured" },
        details: { insurance },
      });
      serveCompliance(() => json(record));
      const insuranceRequests = serveInsurance(() => json(insuranceFixture()));
      renderRoute("/compliance/AB12CDE");
      await screen.findByRole("heading", { name: /compliant/i, level: 2 });
      expect(insuranceBadgeWords()).toBe(expected);
      expect(insuranceRequests).toEqual([]);
    },
  );

  it.each([
    [
      "insured, ending within 30 days",
      { insured: true, policy: policyFixture({ validTo: "2026-12-02" }) },
      "Insurance Pass Insured until 2 December 2026 (ends in 10 days)",
    ],
    [
      "lapsed",
      { insured: false, policy: policyFixture({ validTo: "2026-07-09" }) },
      "Insurance Fail Insurance lapsed on 9 July 2026",
    ],
    [
      "never insured",
      { insured: false, policy: null },
      "Insurance Fail No insurance on record",
    ],
  ])(
    "from the insurance check, for an older service without them: %s",
    async (_, insurance, expected) => {
      const record = complianceFixture({
        checks: { insuranceValid: insurance.insured },
      });
      serveCompliance(() => json(record));
      serveInsurance((registration) =>
        json(insuranceFixture({ registration, ...insurance })),
      );
      renderRoute("/compliance/AB12CDE");
      await screen.findByText("Ford");
      expect(insuranceBadgeWords()).toBe(expected);
    },
  );
});
