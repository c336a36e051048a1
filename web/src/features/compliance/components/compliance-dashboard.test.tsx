import { beforeEach, describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import {
  insuranceFixture,
  policyFixture,
  problemFixture,
} from "../../../testing/fixtures.ts";
import {
  json,
  serveCompliance,
  serveInsurance,
} from "../../../testing/api-handlers.ts";
import { renderRoute } from "../../../testing/render-route.tsx";
import { formatDateTime } from "../../../lib/dates.ts";
import {
  CHECKED_AT,
  complianceFixture,
} from "../../../testing/compliance-fixtures.ts";

type Fixture = Parameters<typeof complianceFixture>[0];

// Dates in the reasons ("ends in 10 days") are counted from today: fix it.
beforeEach(() => {
  vi.setSystemTime(CHECKED_AT);
});

/** Serves one compliance record and its vehicle, then opens its dashboard. */
async function showDashboard(fixture: Fixture, insured = true) {
  const record = complianceFixture(fixture);
  serveCompliance(() => json(record));
  serveInsurance((registration) =>
    json(
      insuranceFixture({
        registration,
        insured,
        policy: policyFixture({
          validTo: insured ? "2027-05-12" : "2026-07-09",
        }),
      }),
    ),
  );
  renderRoute(`/compliance/${record.registration}`);
  return screen.findByRole("heading", {
    level: 2,
    name: record.compliant ? "Compliant" : "Not compliant",
  });
}

/** Each badge's words, in order: "Insurance Pass Insured until 12 May 2027". */
function badgeWords(): string[] {
  const list = screen.getByRole("list", { name: "Checks" });
  return within(list)
    .getAllByRole("listitem")
    .map((item) =>
      [...item.children].map((child) => child.textContent).join(" "),
    );
}

describe("compliance dashboard", () => {
  it("a compliant vehicle: verdict, plate, vehicle, four passing badges with reasons", async () => {
    const verdict = await showDashboard({});
    expect(
      verdict.querySelector('svg[data-status="pass"]'),
    ).toBeInTheDocument();
    expect(screen.getByText("All 4 checks passed.")).toBeVisible();
    const record = verdict.closest("section") as HTMLElement;
    expect(
      within(record).getByText("AB12 CDE").parentElement,
    ).toHaveTextContent("Registration AB12 CDE");
    expect(await screen.findByText("Ford")).toBeVisible();
    const facts = screen.getByText("Ford").closest("dl") as HTMLElement;
    expect(facts).toHaveTextContent("MakeFordModelFocusYear2019ColourBlue");
    expect(badgeWords()).toEqual([
      "Insurance Pass Insured until 12 May 2027",
      "MOT Pass MOT valid until 3 March 2027",
      "Road tax Pass Taxed until 1 April 2027",
      "Fines Pass No unpaid fines",
    ]);
    const badgeHeadings = within(record).getAllByRole("heading", { level: 3 });
    expect(badgeHeadings.map((heading) => heading.textContent)).toEqual([
      "Insurance",
      "MOT",
      "Road tax",
      "Fines",
    ]);
    expect(record.querySelectorAll('li svg[data-status="pass"]')).toHaveLength(
      4,
    );
    expect(screen.getAllByRole("heading", { level: 1 })).toHaveLength(1);
    expect(document.title).toBe(
      "AB12 CDE: Compliant – Compliance check – VICS",
    );
  });

  it("MOT expired: not compliant, 1 of 4 failed, the MOT badge says when", async () => {
    const verdict = await showDashboard({
      registration: "MT15EXP",
      checks: { motValid: false },
      details: { mot: { status: "expired", expiry: "2026-03-03" } },
    });
    expect(
      verdict.querySelector('svg[data-status="fail"]'),
    ).toBeInTheDocument();
    expect(screen.getByText("1 of 4 checks failed: MOT.")).toBeVisible();
    expect(badgeWords()[1]).toBe("MOT Fail MOT expired on 3 March 2026");
    const motBadge = screen.getByRole("heading", { name: "MOT" }).closest("li");
    expect(
      motBadge?.querySelector('svg[data-status="fail"]'),
    ).toBeInTheDocument();
    expect(document.title).toBe(
      "MT15 EXP: Not compliant – Compliance check – VICS",
    );
  });

  it("MOT exempt: shown as passing, with its reason", async () => {
    await showDashboard({
      registration: "NW25CAR",
      details: { mot: { status: "exempt", expiry: null } },
    });
    expect(badgeWords()[1]).toBe("MOT Pass MOT not yet due: under 3 years old");
  });

  it("untaxed: the road tax badge fails and says since when", async () => {
    await showDashboard({
      registration: "TX19NON",
      checks: { roadTaxPaid: false },
      details: { tax: { status: "untaxed", dueDate: "2026-10-22" } },
    });
    expect(screen.getByText("1 of 4 checks failed: Road tax.")).toBeVisible();
    expect(badgeWords()[2]).toBe("Road tax Fail Untaxed since 23 October 2026");
  });

  it("SORN: the road tax badge fails and says SORN", async () => {
    await showDashboard({
      registration: "SR19ORN",
      checks: { roadTaxPaid: false },
      details: { tax: { status: "sorn", dueDate: null } },
    });
    expect(badgeWords()[2]).toBe("Road tax Fail SORN: not taxed for road use");
  });

  it("unpaid fines: count and total in pounds", async () => {
    await showDashboard({
      registration: "FN19OUT",
      checks: { noOutstandingFines: false },
      details: { fines: { count: 2, totalPence: 15_000 } },
    });
    expect(screen.getByText("1 of 4 checks failed: Fines.")).toBeVisible();
    expect(badgeWords()[3]).toBe("Fines Fail 2 unpaid fines, £150 total");
  });

  it("fails all four: every badge says Fail and why", async () => {
    await showDashboard(
      {
        registration: "BD19ALL",
        checks: {
          insuranceValid: false,
          motValid: false,
          roadTaxPaid: false,
          noOutstandingFines: false,
        },
        details: {
          mot: { status: "none", expiry: null },
          tax: { status: "untaxed", dueDate: null },
          fines: { count: 1, totalPence: 6_000 },
        },
      },
      false,
    );
    expect(
      screen.getByText(
        "4 of 4 checks failed: Insurance, MOT, Road tax and Fines.",
      ),
    ).toBeVisible();
    await screen.findByText("Ford");
    expect(badgeWords()).toEqual([
      "Insurance Fail Insurance lapsed on 9 July 2026",
      "MOT Fail No MOT on record",
      "Road tax Fail Not taxed",
      "Fines Fail 1 unpaid fine, £60 total",
    ]);
  });

  it("a record without details: Pass or Fail only", async () => {
    serveCompliance(() =>
      json(complianceFixture({ checks: { motValid: false }, details: null })),
    );
    serveInsurance(() => json(problemFixture("INTERNAL", 500), 500));
    renderRoute("/compliance/AB12CDE");
    await screen.findByRole("heading", { name: "Not compliant" });
    await screen.findByText(/Vehicle details are not available/);
    expect(badgeWords()).toEqual([
      "Insurance Pass",
      "MOT Fail",
      "Road tax Pass",
      "Fines Pass",
    ]);
  });

  it("the vehicle fetch failing: the verdict and badges still show", async () => {
    serveCompliance(() => json(complianceFixture()));
    const vehicleRequests = serveInsurance(() =>
      json(problemFixture("INTERNAL", 500), 500),
    );
    renderRoute("/compliance/AB12CDE");
    expect(
      await screen.findByRole("heading", { name: "Compliant" }),
    ).toBeVisible();
    expect(
      await screen.findByText(
        "Vehicle details are not available right now. The checks below are not affected.",
      ),
    ).toBeVisible();
    expect(vehicleRequests).toEqual(["AB12CDE"]);
    expect(badgeWords()[0]).toBe("Insurance Pass");
    expect(badgeWords()[1]).toBe("MOT Pass MOT valid until 3 March 2027");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("heads the printed record with who checked and when it was printed, leaving the check's time to the record, which prints it already", async () => {
    const verdict = await showDashboard({});
    const record = verdict.closest("section") as HTMLElement;
    const head = record.querySelector(".printed-by") as HTMLElement;
    expect(record.firstElementChild).toBe(head);
    expect(head).toHaveTextContent(
      "Checked bySam Taylor (sam.taylor@example.org)",
    );
    expect(head).toHaveTextContent(`Printed on${formatDateTime(CHECKED_AT)}`);
    expect(head).not.toHaveTextContent("Checked on");
  });
});
