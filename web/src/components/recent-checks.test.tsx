import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { RECENT_CHECKS_KEY } from "../lib/recent-checks.ts";
import { insuranceFixture, problemFixture } from "../test/fixtures.ts";
import { json, serveInsurance } from "../test/api-handlers.ts";
import { renderRoute } from "../test/render-route.tsx";

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
    const items = within(recentChecks()).getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining("Insurance: No vehicle found"),
      expect.stringContaining("Insurance: Not insured"),
    ]);
  });

  it("clears the list, and keeps focus in the section", async () => {
    serveInsurance((registration) => json(insuranceFixture({ registration })));
    const { user } = renderRoute("/vehicle/AB12CDE");
    await within(recentChecks()).findByRole("list");
    await user.click(
      screen.getByRole("button", { name: "Clear recent checks" }),
    );
    expect(within(recentChecks()).queryByRole("list")).not.toBeInTheDocument();
    expect(
      within(recentChecks()).getByText("Checks you make will be listed here."),
    ).toBeVisible();
    expect(window.localStorage.getItem(RECENT_CHECKS_KEY)).toBeNull();
    expect(
      screen.getByRole("heading", { name: "Recent checks" }),
    ).toHaveFocus();
  });

  it("shows the page normally when storage holds junk", () => {
    window.localStorage.setItem(RECENT_CHECKS_KEY, "][not json");
    renderRoute("/");
    expect(
      within(recentChecks()).getByText("Checks you make will be listed here."),
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
