import { StrictMode, type ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { AUTH_PATHS } from "@vics/shared";
import { json } from "../../../testing/api-handlers.ts";
import {
  servePost,
  serveSession,
  sessionFixture,
  SIGNED_IN_USER,
} from "../../../testing/auth-fixtures.ts";
import { problemFixture } from "../../../testing/fixtures.ts";
import { renderRoute } from "../../../testing/render-route.tsx";

const SLOW = { timeout: 10_000 };

/** Opens the link as a browser would: the fragment in the address bar and the router's. */
function openLink(hash: string, answer: () => Response) {
  window.history.replaceState(null, "", `/sign-in/link${hash}`);
  let seenHash: string | undefined;
  const sent = servePost(AUTH_PATHS.useSignInLink, () => {
    seenHash ??= window.location.hash;
    return answer();
  });
  const strict = ({ children }: { children: ReactNode }) => (
    <StrictMode>{children}</StrictMode>
  );
  const view = renderRoute(`/sign-in/link${hash}`, {
    session: null,
    wrapper: strict,
  });
  return { ...view, sent, hashWhenSent: () => seenHash };
}

describe("the one-time sign-in link", () => {
  it("takes the token out of the address bar at once, sends it once, and signs in", async () => {
    const link = openLink("#token=tok-123", () => {
      serveSession(() => sessionFixture());
      return json(sessionFixture());
    });
    // Before the proxy has answered, the token is gone from the address.
    expect(window.location.hash).toBe("");
    expect(window.location.pathname).toBe("/sign-in/link");
    expect(
      await screen.findByRole(
        "heading",
        { level: 1, name: "Check a vehicle’s insurance" },
        SLOW,
      ),
    ).toBeVisible();
    expect(link.router.state.location.pathname).toBe("/");
    expect(link.hashWhenSent()).toBe("");
    // Once, even though React runs effects twice in strict mode.
    expect(link.sent.map((request) => request.body)).toEqual([
      { token: "tok-123" },
    ]);
    expect(screen.getByRole("banner")).toHaveTextContent(
      `Signed in as ${SIGNED_IN_USER.name}`,
    );
  });

  it("explains a link used or expired, and how to get another", async () => {
    openLink("#token=used-one", () =>
      json(problemFixture("LINK_NOT_USABLE", 400), 400),
    );
    const heading = await screen.findByRole(
      "heading",
      { level: 1, name: "This sign-in link cannot be used" },
      SLOW,
    );
    await waitFor(() => expect(heading).toHaveFocus());
    expect(
      screen.getByText(/It has been used already, or it has expired/),
    ).toBeVisible();
    expect(screen.getByText(/run/)).toHaveTextContent(
      "if you started VICS yourself, run npm start again: it prints a new sign-in link",
    );
    expect(
      screen.getByText("otherwise, ask an admin to send you a new link"),
    ).toBeVisible();
    expect(document.title).toBe("This sign-in link cannot be used – VICS");
  });

  it("says a link without its token is not complete, and sends nothing", async () => {
    const link = openLink("", () => json(sessionFixture()));
    expect(
      await screen.findByRole(
        "heading",
        { name: "This sign-in link cannot be used" },
        SLOW,
      ),
    ).toBeVisible();
    expect(screen.getByText(/the part after the # is missing/)).toBeVisible();
    expect(link.sent).toHaveLength(0);
  });
});
