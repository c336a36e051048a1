import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { AUTH_PATHS } from "@vics/shared";
import { http, HttpResponse } from "msw";
import { insuranceFixture, problemFixture } from "../testing/fixtures.ts";
import { json, serveInsurance } from "../testing/api-handlers.ts";
import { renderRoute } from "../testing/render-route.tsx";
import { server } from "../testing/server.ts";

function recentChecks() {
  return screen.getByRole("region", { name: "Recent checks" });
}

describe("recent checks on the insurance page", () => {
  it("lists each check with its plate, outcome and time, linking back to it", async () => {
    serveInsurance((registration) =>
      registration === "XY12ZZZ"
        ? json(problemFixture("VEHICLE_NOT_FOUND", 404), 404)
        : json(
            insuranceFixture({ registration, insured: false, policy: null }),
          ),
    );
    const { user } = renderRoute("/vehicle/UN51NSD");
    const list = await within(recentChecks()).findByRole("list");
    expect(within(list).getAllByRole("listitem")).toHaveLength(1);
    const link = within(list).getByRole("link");
    expect(link).toHaveAttribute("href", "/vehicle/UN51NSD");
    expect(link).toHaveTextContent("Registration UN51 NSD");
    expect(link).toHaveTextContent("Insurance: Not insured");
    expect(within(list).getByText("just now").tagName).toBe("TIME");

    await user.clear(
      screen.getByRole("textbox", { name: "Registration number" }),
    );
    await user.type(
      screen.getByRole("textbox", { name: "Registration number" }),
      "XY12ZZZ",
    );
    await user.click(screen.getByRole("button", { name: "Check insurance" }));
    await screen.findByRole("heading", { name: "No vehicle found" });
    expect(
      (await within(recentChecks()).findAllByRole("listitem")).map(
        (item) => item.textContent,
      ),
    ).toEqual([
      expect.stringContaining("Insurance: No vehicle found"),
      expect.stringContaining("Insurance: Not insured"),
    ]);
  });

  it("shows the checks the proxy holds for this user, made on any computer", async () => {
    server.use(
      http.get(AUTH_PATHS.recentChecks, () =>
        HttpResponse.json({
          checks: [
            {
              at: new Date(Date.now() - 3 * 60_000).toISOString(),
              action: "check.compliance",
              registrations: ["MT15EXP"],
              outcome: "200",
              verdict: "not-compliant",
            },
          ],
        }),
      ),
    );
    renderRoute("/");
    const item = await within(recentChecks()).findByRole("listitem");
    expect(item).toHaveTextContent("Compliance: Not compliant");
    expect(item).toHaveTextContent("3 minutes ago");
    expect(within(item).getByRole("link")).toHaveAttribute(
      "href",
      "/compliance/MT15EXP",
    );
    expect(
      within(recentChecks()).getByText("Your last checks, on any computer."),
    ).toBeVisible();
  });

  it("says so, and offers to try again, when the proxy's list cannot be read", async () => {
    let healthy = false;
    server.use(
      http.get(AUTH_PATHS.recentChecks, () =>
        healthy
          ? HttpResponse.json({ checks: [] })
          : json(problemFixture("INTERNAL", 500), 500),
      ),
    );
    const { user } = renderRoute("/");
    expect(
      await within(recentChecks()).findByText(
        /Your recent checks cannot be shown just now/,
      ),
    ).toBeVisible();
    healthy = true;
    await user.click(
      within(recentChecks()).getByRole("button", { name: "Try again" }),
    );
    expect(
      await within(recentChecks()).findByText(
        "Checks you make will be listed here.",
      ),
    ).toBeVisible();
  });

  it("ignores an answer that breaks the contract rather than failing the page", async () => {
    server.use(
      http.get(AUTH_PATHS.recentChecks, () =>
        HttpResponse.json({ checks: [{ registration: "AB12CDE" }] }),
      ),
    );
    renderRoute("/");
    expect(
      await within(recentChecks()).findByText(
        /Your recent checks cannot be shown just now/,
      ),
    ).toBeVisible();
    expect(
      screen.getByRole("heading", {
        level: 1,
        name: "Check a vehicle’s insurance",
      }),
    ).toBeVisible();
  });
});

describe("recent checks layout", () => {
  it("gives every entry the same shape: plate, then outcome, then time, each on its own line", async () => {
    // jsdom has no layout, but it does apply a style sheet's display values. Vitest empties
    // imported CSS, so the app's sheet is read from disk.
    const sheet = document.createElement("style");
    sheet.textContent = readFileSync(
      resolve(import.meta.dirname, "../styles/components.css"),
      "utf8",
    );
    document.head.append(sheet);
    try {
      serveInsurance((registration) =>
        json(insuranceFixture({ registration })),
      );
      renderRoute("/vehicle/AB12CDE");
      const list = await within(recentChecks()).findByRole("list");
      const item = within(list).getByRole("listitem");
      const link = within(item).getByRole("link");
      const plate = within(link).getByText("AB12 CDE").closest(".number-plate");
      const outcome = within(link).getByText("Insurance: Insured");
      const time = within(item).getByText("just now");

      expect([...link.children]).toEqual([plate, outcome]);
      expect(link.nextElementSibling).toBe(time);
      // Outcome and time are blocks: each starts its own line, however wide the column.
      expect(getComputedStyle(outcome).display).toBe("block");
      expect(getComputedStyle(time).display).toBe("block");
      // The link is not a flex box, where the outcome wrapped or not by its length.
      expect(getComputedStyle(link).display).toBe("inline-block");
    } finally {
      sheet.remove();
    }
  });
});
