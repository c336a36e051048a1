// Roles: the navigation shows what a role can use, a page it cannot use says so in words, and
// so does a 403 ROLE_REQUIRED from the proxy (signing in and out: features/auth's tests).
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { Role } from "@vics/shared";
import { json, serveInsurance } from "../testing/api-handlers.ts";
import {
  serveSession,
  sessionFixture,
  userWithRole,
} from "../testing/auth-fixtures.ts";
import { problemFixture } from "../testing/fixtures.ts";
import { renderRoute } from "../testing/render-route.tsx";

const SLOW = { timeout: 10_000 };

const asRole = (url: string, role: Role) =>
  renderRoute(url, { session: sessionFixture(userWithRole(role)) });

function navLabels(): string[] {
  const nav = screen.getByRole("navigation", { name: "Primary" });
  // The admin areas too, though their menu is folded.
  return within(nav)
    .getAllByRole("link", { hidden: true })
    .map((link) => link.textContent ?? "");
}

describe("what each role sees in the navigation", () => {
  it.each([
    ["staff", ["Insurance check", "Compliance check"]],
    [
      "fleet",
      [
        "Insurance check",
        "Compliance check",
        "Fleet check",
        "Fleets",
        "Notifications",
      ],
    ],
    [
      "admin",
      [
        "Insurance check",
        "Compliance check",
        "Fleet check",
        "Fleets",
        "Notifications",
        "Users",
        "Audit log",
        "Data",
        "Sources",
        "Alerts",
      ],
    ],
  ] as const)("%s: %j", (role, labels) => {
    asRole("/", role);
    expect(navLabels()).toEqual(labels);
  });
});

describe("a page the role cannot use, arrived at by a link", () => {
  it("says what the role allows, what the page needs and who to ask, instead of the page", async () => {
    asRole("/fleet", "staff");
    expect(
      await screen.findByRole("heading", {
        level: 1,
        name: "Your role does not allow this page",
      }),
    ).toBeVisible();
    expect(
      screen.getByText(
        "Your role, staff, lets you make single insurance and compliance checks. Fleet checks need the fleet role: ask an admin.",
      ),
    ).toBeVisible();
    expect(
      screen.queryByRole("heading", { name: "Fleet check" }),
    ).not.toBeInTheDocument();
    // The title is set in an effect, after the heading is in the page.
    await waitFor(() =>
      expect(document.title).toBe("Your role does not allow this page – VICS"),
    );
  });

  it.each(["/admin/users", "/admin/audit?user=ann%40example.org"])(
    "%s needs the admin role",
    async (url) => {
      asRole(url, "fleet");
      expect(
        await screen.findByText(
          "Your role, fleet, lets you make single checks and fleet checks of whole lists. Managing users, the audit log, the data, its sources and alert deliveries need the admin role: ask an admin.",
          {},
          SLOW,
        ),
      ).toBeVisible();
    },
  );

  it("shows the page once the role allows it", async () => {
    asRole("/fleet", "admin");
    expect(
      await screen.findByRole(
        "heading",
        { level: 1, name: "Fleet check" },
        SLOW,
      ),
    ).toBeVisible();
  });
});

describe("a 403 ROLE_REQUIRED from the proxy", () => {
  it("shows the same words, and asks who is signed in again (an admin may have changed the role)", async () => {
    serveInsurance(() => json(problemFixture("ROLE_REQUIRED", 403), 403));
    asRole("/vehicle/AB12CDE", "staff");
    const { asked } = serveSession(() => sessionFixture(userWithRole("staff")));
    const before = asked();
    const panel = await screen.findByRole("heading", {
      name: "Your role does not allow this",
    });
    expect(panel.closest("section")).toHaveTextContent(
      "Your role, staff, lets you make single insurance and compliance checks. It does not let you do this: ask an admin.",
    );
    await waitFor(() => expect(asked()).toBeGreaterThan(before));
  });
});
