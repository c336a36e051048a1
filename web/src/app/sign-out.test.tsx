// Signing out on a shared computer: the user's saved fleet runs go from this browser (after
// saying how many), then the session, every cached answer, and the page itself.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { AUTH_PATHS } from "@vics/shared";
import { HttpResponse } from "msw";
import { browserNavigation } from "../lib/browser-navigation.ts";
import { json, serveInsurance } from "../testing/api-handlers.ts";
import {
  servePost,
  serveSession,
  sessionFixture,
  SIGNED_IN_USER,
  userWithRole,
} from "../testing/auth-fixtures.ts";
import { insuranceFixture } from "../testing/fixtures.ts";
import { renderRoute } from "../testing/render-route.tsx";

const SLOW = { timeout: 10_000 };

const fleet = vi.hoisted(() => ({
  saved: { runs: 0, list: false },
  steps: [] as string[],
}));

vi.mock("../features/fleet/index.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../features/fleet/index.ts")>()),
  loadSavedFleetChecks: async () => ({
    summary: async (userId: string) => {
      fleet.steps.push(`summary ${userId}`);
      return fleet.saved;
    },
    clear: async (userId: string) => {
      fleet.steps.push(`clear ${userId}`);
    },
  }),
}));

let assigned: string[] = [];
beforeEach(() => {
  fleet.saved = { runs: 0, list: false };
  fleet.steps = [];
  assigned = [];
  vi.spyOn(browserNavigation, "assign").mockImplementation((url) => {
    assigned.push(url);
  });
});
afterEach(() => vi.restoreAllMocks());

function serveSignOut(redirectTo = "/sign-in") {
  return servePost(AUTH_PATHS.signOut, () => {
    fleet.steps.push("sign-out");
    return json({ redirectTo });
  });
}

describe("the header", () => {
  it("shows who is signed in, linking to their account, and a Sign out button", () => {
    renderRoute("/");
    const header = screen.getByRole("banner");
    expect(header).toHaveTextContent(`Signed in as ${SIGNED_IN_USER.name}`);
    expect(
      within(header).getByRole("link", { name: SIGNED_IN_USER.name }),
    ).toHaveAttribute("href", "/account");
    expect(
      within(header).getByRole("button", { name: "Sign out" }),
    ).toBeVisible();
  });
});

describe("signing out with nothing saved in this browser", () => {
  it("signs out at once: no body sent, every cached answer forgotten, then a page load to where the proxy says", async () => {
    const sent = serveSignOut();
    serveInsurance((registration) => json(insuranceFixture({ registration })));
    const { user, queryClient } = renderRoute("/vehicle/AB12CDE");
    await screen.findByRole("heading", { name: "Insured" });
    expect(queryClient.getQueryData(["insurance", "AB12CDE"])).toBeDefined();

    await user.click(screen.getByRole("button", { name: "Sign out" }));
    await waitFor(() => expect(assigned).toEqual(["/sign-in"]), SLOW);
    expect(sent).toEqual([
      { body: undefined, contentType: null, client: "web" },
    ]);
    expect(fleet.steps).toEqual([
      `summary ${SIGNED_IN_USER.id}`,
      `clear ${SIGNED_IN_USER.id}`,
      "sign-out",
    ]);
    expect(queryClient.getQueryData(["insurance", "AB12CDE"])).toBeUndefined();
  });

  it("goes to the provider's sign-out page when the proxy says so, and never to a script", async () => {
    serveSignOut("https://login.example.org/logout?post_logout_redirect_uri=x");
    const { user } = renderRoute("/");
    await user.click(screen.getByRole("button", { name: "Sign out" }));
    await waitFor(
      () =>
        expect(assigned).toEqual([
          "https://login.example.org/logout?post_logout_redirect_uri=x",
        ]),
      SLOW,
    );

    serveSignOut("javascript:alert(1)");
    const again = renderRoute("/");
    await again.user.click(
      within(again.container).getByRole("button", { name: "Sign out" }),
    );
    await waitFor(() => expect(assigned).toHaveLength(2), SLOW);
    expect(assigned[1]).toBe("/sign-in");
  });
});

describe("signing out with saved fleet runs in this browser", () => {
  it("first says how many will be removed, and removes them before the session ends", async () => {
    fleet.saved = { runs: 3, list: true };
    serveSignOut();
    const { user, router } = renderRoute("/");
    await user.click(screen.getByRole("button", { name: "Sign out" }));

    const heading = await screen.findByRole(
      "heading",
      { level: 1, name: "Sign out" },
      SLOW,
    );
    expect(router.state.location.pathname).toBe("/sign-out");
    expect(heading).toBeVisible();
    // A new area of the app: focus is at the start of its main content, as after a page load.
    expect(screen.getByRole("main")).toHaveFocus();
    expect(
      await screen.findByText(
        "Signing out removes your 3 saved fleet checks and the fleet list you were preparing from this browser, so that the next person to use it cannot see them.",
      ),
    ).toBeVisible();
    expect(
      screen.getByRole("link", { name: "your fleet checks" }),
    ).toHaveAttribute("href", "/fleet");
    expect(assigned).toEqual([]);
    expect(fleet.steps).not.toContain(`clear ${SIGNED_IN_USER.id}`);

    await user.click(
      screen.getByRole("button", { name: "Sign out and remove them" }),
    );
    await waitFor(() => expect(assigned).toEqual(["/sign-in"]), SLOW);
    expect(fleet.steps.slice(-2)).toEqual([
      `clear ${SIGNED_IN_USER.id}`,
      "sign-out",
    ]);
  });

  it("names one saved run as one", async () => {
    fleet.saved = { runs: 1, list: false };
    renderRoute("/sign-out");
    expect(
      await screen.findByText(
        /^Signing out removes your saved fleet check from this browser/,
        {},
        SLOW,
      ),
    ).toBeVisible();
    expect(
      screen.getByRole("button", { name: "Sign out and remove it" }),
    ).toBeVisible();
  });

  it("stays signed in, and says so, when the proxy cannot be reached", async () => {
    fleet.saved = { runs: 2, list: false };
    servePost(AUTH_PATHS.signOut, () => HttpResponse.error());
    const { user } = renderRoute("/sign-out");
    await user.click(
      await screen.findByRole(
        "button",
        { name: "Sign out and remove them" },
        SLOW,
      ),
    );
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "You have not been signed out",
    );
    expect(assigned).toEqual([]);
  });
});

describe("signing out of every session", () => {
  it("says it ends this browser's session too, and asks the proxy to end them all", async () => {
    const sent = servePost(
      AUTH_PATHS.signOutEverywhere,
      () => new HttpResponse(null, { status: 204 }),
    );
    const { user } = renderRoute("/sign-out?everywhere=yes");
    expect(
      await screen.findByRole(
        "heading",
        { level: 1, name: "Sign out of every session" },
        SLOW,
      ),
    ).toBeVisible();
    expect(screen.getByText(/this one included/)).toBeVisible();
    await user.click(
      await screen.findByRole("button", { name: "Sign out everywhere" }),
    );
    await waitFor(() => expect(assigned).toEqual(["/sign-in"]), SLOW);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toBeUndefined();
    expect(screen.getByRole("link", { name: "Cancel" })).toHaveAttribute(
      "href",
      "/account",
    );
  });
});

describe("when the session user changes", () => {
  it("forgets every cached answer of the one before: the page asks again", async () => {
    const requested = serveInsurance((registration) =>
      json(insuranceFixture({ registration })),
    );
    const { queryClient } = renderRoute("/vehicle/AB12CDE");
    await screen.findByRole("heading", { name: "Insured" });
    expect(requested).toEqual(["AB12CDE"]);

    // Signed in as someone else in another tab: the session, asked again, names them.
    serveSession(() => sessionFixture(userWithRole("staff")));
    await queryClient.refetchQueries({ queryKey: ["auth", "session"] });
    await waitFor(() => expect(requested).toEqual(["AB12CDE", "AB12CDE"]));
    expect(screen.getByRole("banner")).toHaveTextContent(
      "Signed in as Staff User",
    );
  });

  it("keeps them while the same user stays signed in", async () => {
    const requested = serveInsurance((registration) =>
      json(insuranceFixture({ registration })),
    );
    const { queryClient } = renderRoute("/vehicle/AB12CDE");
    await screen.findByRole("heading", { name: "Insured" });
    await queryClient.refetchQueries({ queryKey: ["auth", "session"] });
    expect(queryClient.getQueryData(["insurance", "AB12CDE"])).toBeDefined();
    expect(requested).toEqual(["AB12CDE"]);
  });
});
