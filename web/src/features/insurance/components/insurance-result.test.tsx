import { describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import {
  daysFromToday,
  insuranceFixture,
  policyFixture,
} from "../../../testing/fixtures.ts";
import { json, serveInsurance } from "../../../testing/api-handlers.ts";
import { renderRoute } from "../../../testing/render-route.tsx";
import { CHECKED_AT } from "../../../testing/compliance-fixtures.ts";
import { formatDateTime } from "../../../lib/dates.ts";

function descriptionOf(term: string): string {
  const dt = screen.getByText(term, { selector: "dt" });
  return dt.nextElementSibling?.textContent ?? "";
}

describe("insurance result", () => {
  it("shows an insured vehicle: plate, status, policy, vehicle, freshness, compliance link", async () => {
    serveInsurance(() => json(insuranceFixture()));
    renderRoute("/vehicle/AB12CDE");

    expect(
      screen.getByText("Checking AB12 CDE…", { selector: "[role=status]" }),
    ).toBeInTheDocument();
    expect(
      screen.getByText("Checking AB12 CDE…", { selector: "p:not([role])" }),
    ).toBeVisible();
    expect(
      screen
        .getByText("Checking AB12 CDE…", { selector: "p:not([role])" })
        .closest("[aria-busy]"),
    ).toHaveAttribute("aria-busy", "true");
    const heading = await screen.findByRole("heading", { name: "Insured" });
    const result = heading.closest("section") as HTMLElement;
    expect(
      within(result).getByText("AB12 CDE").parentElement,
    ).toHaveTextContent("Registration AB12 CDE");
    expect(
      heading.querySelector('svg[data-status="pass"]'),
    ).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Policy" })).toBeVisible();
    expect(descriptionOf("Insurer")).toBe("Northwind Mutual");
    expect(descriptionOf("Policy number")).toBe("POL-7781-2231");
    expect(descriptionOf("Cover type")).toBe("Comprehensive");
    expect(descriptionOf("Valid to")).toContain("(ends in 165 days)");
    expect(screen.queryByText(/Expiring soon/)).not.toBeInTheDocument();

    expect(
      screen.getByText(/so you can confirm it is the right car/),
    ).toBeVisible();
    expect(descriptionOf("Make")).toBe("Ford");
    expect(descriptionOf("Model")).toBe("Focus");
    expect(descriptionOf("Year")).toBe("2019");
    expect(descriptionOf("Colour")).toBe("Blue");
    expect(screen.getByText(/Record last updated/)).toHaveTextContent(
      "Record last updated 1 March 2026 at 09:30",
    );
    expect(
      screen.getByRole("link", { name: "Check compliance for AB12 CDE" }),
    ).toHaveAttribute("href", "/compliance/AB12CDE");
    expect(document.title).toBe("AB12 CDE: Insured – Insurance check – VICS");
    expect(screen.getByText("AB12 CDE is insured.")).toHaveAttribute(
      "role",
      "status",
    );
  });

  it("says when the check was made, for a printout", async () => {
    vi.setSystemTime(CHECKED_AT);
    serveInsurance(() => json(insuranceFixture()));
    renderRoute("/vehicle/AB12CDE");
    const result = (
      await screen.findByRole("heading", { name: "Insured" })
    ).closest("section") as HTMLElement;
    const checkedAt = within(result).getByText(/^Checked at/);
    expect(checkedAt).toHaveTextContent(
      /^Checked at 10:15 on 22 November 2026$/,
    );
    expect(checkedAt.querySelector("time")).toHaveAttribute(
      "datetime",
      CHECKED_AT,
    );
  });

  it("heads the printed record with who checked and when it was printed, leaving the check's time to the record, which prints it already", async () => {
    vi.setSystemTime(CHECKED_AT);
    serveInsurance(() => json(insuranceFixture()));
    renderRoute("/vehicle/AB12CDE");
    const result = (
      await screen.findByRole("heading", { name: "Insured" })
    ).closest("section") as HTMLElement;
    const head = result.querySelector(".printed-by") as HTMLElement;
    expect(result.firstElementChild).toBe(head);
    expect(head).toHaveTextContent(
      "Checked bySam Taylor (sam.taylor@example.org)",
    );
    expect(head).toHaveTextContent(`Printed on${formatDateTime(CHECKED_AT)}`);
    expect(head).not.toHaveTextContent("Checked on");
    expect(within(result).getByText(/^Checked at/)).toHaveTextContent(
      /^Checked at 10:15 on 22 November 2026$/,
    );
  });

  it("says how long ago a recently changed record was updated, apart so print can drop it", async () => {
    const threeDaysAgo = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000);
    serveInsurance(() =>
      json(insuranceFixture({ lastUpdated: threeDaysAgo.toISOString() })),
    );
    renderRoute("/vehicle/AB12CDE");
    const updated = await screen.findByText(/Record last updated/);
    expect(updated).toHaveTextContent(
      /^Record last updated \d{1,2} \w+ \d{4} at \d\d:\d\d \(3 days ago\)$/,
    );
    // print.css hides .relative-time: on paper, "3 days ago" stops being true.
    expect(within(updated).getByText("(3 days ago)")).toHaveClass(
      "relative-time",
    );
  });

  it("flags a policy ending within 30 days as expiring soon, in words", async () => {
    serveInsurance(() =>
      json(
        insuranceFixture({
          registration: "EX26SON",
          policy: policyFixture({ validTo: daysFromToday(10) }),
        }),
      ),
    );
    renderRoute("/vehicle/EX26SON");
    expect(await screen.findByText("Expiring soon:")).toBeVisible();
    expect(descriptionOf("Valid to")).toContain("(ends in 10 days)");
  });

  it("shows a never-insured vehicle: Not insured, no policy on record", async () => {
    serveInsurance(() =>
      json(
        insuranceFixture({
          registration: "UN51NSD",
          insured: false,
          policy: null,
        }),
      ),
    );
    renderRoute("/vehicle/UN51NSD");
    const heading = await screen.findByRole("heading", { name: "Not insured" });
    expect(
      heading.querySelector('svg[data-status="fail"]'),
    ).toBeInTheDocument();
    expect(screen.getByText("No insurance policy on record")).toBeVisible();
    expect(screen.queryByText("Insurer")).not.toBeInTheDocument();
    expect(descriptionOf("Make")).toBe("Ford");
    expect(document.title).toBe(
      "UN51 NSD: Not insured – Insurance check – VICS",
    );
  });

  it("shows a lapsed policy as the last policy, ended N days ago", async () => {
    serveInsurance(() =>
      json(
        insuranceFixture({
          registration: "LP08SED",
          insured: false,
          policy: policyFixture({
            validFrom: daysFromToday(-385),
            validTo: daysFromToday(-20),
          }),
        }),
      ),
    );
    renderRoute("/vehicle/LP08SED");
    expect(
      await screen.findByRole("heading", { name: "Not insured" }),
    ).toBeVisible();
    expect(screen.getByRole("heading", { name: "Last policy" })).toBeVisible();
    expect(descriptionOf("Valid to")).toContain("(ended 20 days ago)");
    expect(
      screen.getByText(
        /No policy covers today. The last policy ended 20 days ago/,
      ),
    ).toBeVisible();
    expect(screen.queryByText(/Expiring soon/)).not.toBeInTheDocument();
  });
});
