import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { http } from "msw";
import { AUTH_PATHS, PROXY_PREFIX, ROUTE_PATTERNS } from "@vics/shared";
import { navAreasFor } from "../nav-areas.ts";
import { SIGNED_IN_USER, sessionFixture } from "../../testing/auth-fixtures.ts";
import { problemFixture } from "../../testing/fixtures.ts";
import { json } from "../../testing/api-handlers.ts";
import { renderRoute } from "../../testing/render-route.tsx";
import { server } from "../../testing/server.ts";

function primaryNav() {
  return screen.getByRole("navigation", { name: "Primary" });
}

const adminSession = () => sessionFixture({ ...SIGNED_IN_USER, role: "admin" });

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

  it("lists the five areas a fleet user can use, grouped: checks, then fleets", () => {
    renderRoute("/");
    const links = within(primaryNav()).getAllByRole("link");
    expect(links.map((link) => link.getAttribute("href"))).toEqual([
      "/",
      "/compliance",
      "/fleet",
      "/fleets",
      "/notifications",
    ]);
    // Driven by NAV_AREAS, so a feature landing is a one-line change there.
    expect(links.map((link) => link.textContent)).toEqual(
      navAreasFor("fleet").map(
        (area) => area.label + (area.comingNext ? "Coming next" : ""),
      ),
    );
    expect(
      within(primaryNav())
        .getAllByRole("list")
        .slice(1)
        .map((list) => [
          list.getAttribute("aria-label"),
          within(list)
            .getAllByRole("link")
            .map((link) => link.textContent),
        ]),
    ).toEqual([
      [
        "Vehicle checks",
        ["Insurance check", "Compliance check", "Fleet check"],
      ],
      ["Saved fleets", ["Fleets", "Notifications"]],
    ]);
    // No administration for a fleet user.
    expect(
      within(primaryNav()).queryByRole("button", { name: "Admin" }),
    ).not.toBeInTheDocument();
  });

  it("shows staff only the two checks", () => {
    renderRoute("/", {
      session: sessionFixture({ ...SIGNED_IN_USER, role: "staff" }),
    });
    expect(
      within(primaryNav())
        .getAllByRole("link")
        .map((link) => link.textContent),
    ).toEqual(["Insurance check", "Compliance check"]);
    expect(within(primaryNav()).queryByRole("button", { name: "Admin" })).toBe(
      null,
    );
  });

  it("puts an admin's five admin areas behind an Admin button, last, folded until pressed", async () => {
    const { user } = renderRoute("/", { session: adminSession() });
    const nav = within(primaryNav());
    // Checks, fleets, then the Admin button: ten areas in the order a person would choose.
    expect(nav.getAllByRole("link").map((link) => link.textContent)).toEqual([
      "Insurance check",
      "Compliance check",
      "Fleet check",
      "Fleets",
      "Notifications",
    ]);
    const admin = nav.getByRole("button", { name: "Admin" });
    const menu = document.getElementById(
      admin.getAttribute("aria-controls") ?? "",
    );
    expect(menu?.tagName).toBe("UL");
    expect(menu).toHaveAttribute("aria-label", "Admin");
    expect(admin).toHaveAttribute("aria-expanded", "false");
    expect(menu).not.toBeVisible();

    await user.click(admin);
    expect(admin).toHaveAttribute("aria-expanded", "true");
    expect(
      within(menu!)
        .getAllByRole("link")
        .map((link) => [link.textContent, link.getAttribute("href")]),
    ).toEqual([
      ["Users", "/admin/users"],
      ["Audit log", "/admin/audit"],
      ["Data", "/admin/data"],
      ["Sources", "/admin/sources"],
      ["Alerts", "/admin/alerts"],
    ]);
    // After the last of the admin areas comes the Admin list's end: Tab goes through them.
    expect(
      nav.getAllByRole("link").map((link) => link.textContent),
    ).toHaveLength(10);
  });

  it("folds the Admin menu on Escape, back to its button, and after a move", async () => {
    // The audit page the test goes to: an empty log.
    server.use(
      http.get(AUTH_PATHS.audit, () => json({ events: [], next: null })),
    );
    const { user, router } = renderRoute("/", { session: adminSession() });
    const nav = within(primaryNav());
    const admin = nav.getByRole("button", { name: "Admin" });
    await user.click(admin);
    await user.tab();
    expect(nav.getByRole("link", { name: "Users" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(admin).toHaveAttribute("aria-expanded", "false");
    expect(admin).toHaveFocus();

    await user.keyboard("{Enter}");
    expect(admin).toHaveAttribute("aria-expanded", "true");
    await user.click(nav.getByRole("link", { name: "Audit log" }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe("/admin/audit"),
    );
    expect(admin).toHaveAttribute("aria-expanded", "false");
    // The page's own link, in the folded menu, is the current one; the button shows it.
    expect(
      nav.getByRole("link", { name: "Audit log", hidden: true }),
    ).toHaveAttribute("aria-current", "page");
    expect(admin).toHaveClass("primary-nav__menu-button--current");
    await screen.findByRole("heading", { level: 1, name: "Audit log" });
  });

  it("folds the Admin menu when focus leaves it", async () => {
    const { user } = renderRoute("/", { session: adminSession() });
    const nav = within(primaryNav());
    const admin = nav.getByRole("button", { name: "Admin" });
    await user.click(admin);
    for (let i = 0; i < 5; i++) await user.tab();
    expect(nav.getByRole("link", { name: "Alerts" })).toHaveFocus();
    await user.tab();
    expect(admin).toHaveAttribute("aria-expanded", "false");
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
    expect(list).toBe(within(primaryNav()).getAllByRole("list")[0]);
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
