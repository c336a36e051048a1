import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { http } from "msw";
import { PROXY_PREFIX, ROUTE_PATTERNS } from "@vics/shared";
import { navAreasFor } from "../nav-areas.ts";
import { problemFixture } from "../../test/fixtures.ts";
import { json } from "../../test/api-handlers.ts";
import { renderRoute } from "../../test/render-route.tsx";
import { server } from "../../test/server.ts";

function primaryNav() {
  return screen.getByRole("navigation", { name: "Primary" });
}

describe("app shell", () => {
  it("has a skip link, the product name, landmarks and one h1", () => {
    renderRoute("/");
    const skip = screen.getByRole("link", { name: "Skip to main content" });
    expect(skip).toHaveAttribute("href", "#main-content");
    expect(screen.getByRole("banner")).toHaveTextContent("VICS");
    expect(screen.getByRole("main")).toHaveAttribute("id", "main-content");
    expect(screen.getByRole("contentinfo")).toBeInTheDocument();
    expect(screen.getAllByRole("heading", { level: 1 })).toHaveLength(1);
  });

  it("main spans the page, with the width container inside it", async () => {
    // The other way round, the container is a flex item of the page's column and its auto
    // margins shrink it to its content: a short page sat off to the right (no layout in jsdom).
    renderRoute("/fleet");
    await screen.findByRole("navigation", { name: "Primary" });
    expect(screen.getByRole("main").firstElementChild).toHaveClass(
      "width-container",
    );
  });

  it("skip link moves focus to main content", async () => {
    const { user } = renderRoute("/");
    await user.tab();
    expect(
      screen.getByRole("link", { name: "Skip to main content" }),
    ).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(screen.getByRole("main")).toHaveFocus();
  });

  it("lists the five areas a fleet user can use, marking any still to come", () => {
    renderRoute("/");
    const links = within(primaryNav()).getAllByRole("link");
    expect(links.map((link) => link.getAttribute("href"))).toEqual([
      "/",
      "/fleet",
      "/fleets",
      "/notifications",
      "/compliance",
    ]);
    // Driven by NAV_AREAS, so a feature landing is a one-line change there.
    expect(links.map((link) => link.textContent)).toEqual(
      navAreasFor("fleet").map(
        (area) => area.label + (area.comingNext ? "Coming next" : ""),
      ),
    );
    expect(links[0]).toHaveTextContent(/^Insurance check$/);
    // The fleet check has landed.
    expect(links[1]).toHaveTextContent(/^Fleet check$/);
  });

  it.each([
    ["/", "Insurance check"],
    ["/vehicle/AB123CD", "Insurance check"],
    ["/fleet", "Fleet check"],
    ["/compliance", "Compliance check"],
    ["/compliance/AB12CDE", "Compliance check"],
  ])("at %s marks %s as the current area", async (url, area) => {
    server.use(
      http.get(PROXY_PREFIX + ROUTE_PATTERNS.compliance, () =>
        json(problemFixture("VEHICLE_NOT_FOUND", 404), 404),
      ),
    );
    renderRoute(url);
    await screen.findByRole("navigation", { name: "Primary" });
    const current = within(primaryNav())
      .getAllByRole("link")
      .filter((link) => link.getAttribute("aria-current") === "page");
    expect(current).toHaveLength(1);
    expect(current[0]).toHaveTextContent(area);
  });

  it("folds the navigation behind a Menu button on a phone, and folds it again after a move", async () => {
    const { user } = renderRoute("/");
    const menu = within(primaryNav()).getByRole("button", { name: "Menu" });
    const list = document.getElementById(
      menu.getAttribute("aria-controls") ?? "",
    );
    expect(list).toBe(within(primaryNav()).getByRole("list"));
    expect(menu).toHaveAttribute("aria-expanded", "false");
    expect(list).not.toHaveClass("primary-nav__list--open");
    await user.click(menu);
    expect(menu).toHaveAttribute("aria-expanded", "true");
    expect(list).toHaveClass("primary-nav__list--open");
    await user.click(
      within(primaryNav()).getByRole("link", { name: "Compliance check" }),
    );
    expect(menu).toHaveAttribute("aria-expanded", "false");
    expect(list).not.toHaveClass("primary-nav__list--open");
  });

  it("navigates between areas", async () => {
    const { user, router } = renderRoute("/");
    await user.click(
      within(primaryNav()).getByRole("link", { name: /Fleet check/ }),
    );
    expect(
      await screen.findByRole("heading", { level: 1, name: "Fleet check" }),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe("/fleet");
    expect(screen.getByRole("main")).toHaveFocus();
    expect(document.title).toBe("Fleet check – VICS");
  });

  it.each(["/compliance", "/compliance/AB12CDE"])(
    "routes %s to the compliance feature",
    (url) => {
      // The compliance feature may look the vehicle up; this test only cares about routing.
      server.use(
        http.get(PROXY_PREFIX + ROUTE_PATTERNS.compliance, () =>
          json(problemFixture("VEHICLE_NOT_FOUND", 404), 404),
        ),
      );
      const { router } = renderRoute(url);
      expect(router.state.location.pathname).toBe(url);
      expect(screen.getAllByRole("heading", { level: 1 })).toHaveLength(1);
      expect(
        screen.queryByRole("heading", { name: "Page not found" }),
      ).not.toBeInTheDocument();
    },
  );

  it("answers an unknown URL with words and a way back", () => {
    renderRoute("/no/such/page");
    expect(
      screen.getByRole("heading", { level: 1, name: "Page not found" }),
    ).toBeVisible();
    expect(
      screen.getByRole("link", { name: "Go to the insurance check" }),
    ).toHaveAttribute("href", "/");
  });
});
