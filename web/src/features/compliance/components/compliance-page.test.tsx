import { describe, expect, it, vi } from "vitest";
import { act, screen, within } from "@testing-library/react";
import { insuranceFixture } from "../../../testing/fixtures.ts";
import {
  json,
  serveCompliance,
  serveInsurance,
} from "../../../testing/api-handlers.ts";
import { renderRoute } from "../../../testing/render-route.tsx";
import { complianceFixture } from "../../../testing/compliance-fixtures.ts";

function serveAb12() {
  const compliance = serveCompliance((registration) =>
    json(complianceFixture({ registration })),
  );
  const insurance = serveInsurance((registration) =>
    json(insuranceFixture({ registration })),
  );
  return { compliance, insurance };
}

describe("compliance check form", () => {
  it("shows the registration form with its own button and title", () => {
    renderRoute("/compliance");
    expect(
      screen.getByRole("heading", {
        level: 1,
        name: "Check a vehicle’s compliance",
      }),
    ).toBeVisible();
    expect(
      screen.getByRole("textbox", { name: "Registration number" }),
    ).toHaveAccessibleDescription("For example, AB12 CDE");
    expect(
      screen.getByRole("button", { name: "Check compliance" }),
    ).toBeVisible();
    expect(document.title).toBe("Compliance check – VICS");
  });

  it("is a live area of the navigation, no longer 'coming next'", () => {
    renderRoute("/compliance");
    const nav = screen.getByRole("navigation", { name: "Primary" });
    // The navigation calls it what the page's title does.
    const link = within(nav).getByRole("link", { name: "Compliance check" });
    expect(link).toHaveTextContent(/^Compliance check$/);
    expect(document.title).toBe("Compliance check – VICS");
    expect(link).toHaveAttribute("aria-current", "page");
  });

  it("announces the check while it runs, inside no busy region", async () => {
    serveAb12();
    renderRoute("/compliance/AB12CDE");
    const status = screen.getByText("Checking AB12 CDE…", {
      selector: "[role=status]",
    });
    expect(status.closest("[aria-busy]")).toBeNull();
    expect(document.title).toBe("Checking AB12 CDE – Compliance check – VICS");
    await screen.findByRole("heading", { name: "Compliant" });
    expect(status).toHaveTextContent(
      "AB12 CDE: Compliant. Checked at 10:15 on 22 November 2026.",
    );
  });
});

describe("links between the compliance and insurance views", () => {
  it("links to the insurance view of the same vehicle", async () => {
    serveAb12();
    const { user, router } = renderRoute("/compliance/AB12CDE");
    const link = await screen.findByRole("link", {
      name: "View insurance details for AB12 CDE",
    });
    expect(link).toHaveAttribute("href", "/vehicle/AB12CDE");
    await user.click(link);
    expect(router.state.location.pathname).toBe("/vehicle/AB12CDE");
    expect(
      await screen.findByRole("heading", { name: "Insured" }),
    ).toBeVisible();
  });

  it("comes from the insurance view, reusing its vehicle instead of asking again", async () => {
    const { compliance, insurance } = serveAb12();
    const { router, queryClient } = renderRoute("/vehicle/AB12CDE");
    // As the app's own client does: an answer is fresh for a minute.
    queryClient.setDefaultOptions({
      queries: { retry: false, staleTime: 60_000 },
    });
    const link = await screen.findByRole("link", {
      name: "Check compliance for AB12 CDE",
    });
    await act(() => router.navigate(link.getAttribute("href") ?? ""));
    await screen.findByRole("heading", { name: "Compliant" });
    expect(screen.getByText("Ford")).toBeVisible();
    expect(compliance).toEqual(["AB12CDE"]);
    expect(insurance).toEqual(["AB12CDE"]);
  });
});

describe("recent checks", () => {
  it("adds the compliance check, linking back to its dashboard", async () => {
    serveAb12();
    renderRoute("/compliance/AB12CDE");
    const recent = screen.getByRole("region", { name: "Recent checks" });
    const item = await within(recent).findByRole("listitem");
    expect(item).toHaveTextContent("Compliance: Compliant");
    expect(within(item).getByRole("link")).toHaveAttribute(
      "href",
      "/compliance/AB12CDE",
    );
  });
});

describe("one request per check", () => {
  it("a record carrying its vehicle and insurance details needs no insurance check", async () => {
    const compliance = serveCompliance((registration) =>
      json(
        complianceFixture({
          registration,
          details: { insurance: { status: "insured", validTo: "2027-05-12" } },
          vehicle: { make: "Kia", model: "Niro", year: 2025, color: "White" },
        }),
      ),
    );
    const insurance = serveInsurance((registration) =>
      json(insuranceFixture({ registration })),
    );
    const { user } = renderRoute("/compliance/AB12CDE");
    await screen.findByRole("heading", { name: "Compliant" });
    expect(screen.getByText("Kia").closest("dl")).toHaveTextContent(
      "MakeKiaModelNiroYear2025ColourWhite",
    );
    const checks = screen.getByRole("list", { name: "Checks" });
    const [insuranceBadge] = within(checks).getAllByRole("listitem");
    expect(insuranceBadge).toHaveTextContent(
      "InsurancePassInsured until 12 May 2027",
    );

    await user.click(screen.getByRole("button", { name: "Check again" }));
    await vi.waitFor(() => expect(compliance).toHaveLength(2));
    expect(insurance).toEqual([]);
  });
});
