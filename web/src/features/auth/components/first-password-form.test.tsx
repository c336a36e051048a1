import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { AUTH_PATHS } from "@vics/shared";
import { json } from "../../../test/api-handlers.ts";
import {
  servePost,
  serveSignInMethods,
  sessionFixture,
  userFixture,
} from "../../../test/auth-fixtures.ts";
import { problemFixture } from "../../../test/fixtures.ts";
import { fill } from "../../../test/fill.ts";
import { renderRoute } from "../../../test/render-route.tsx";

/**
 * The first password's time limit (decision 053): the form says it up front, and the proxy's
 * refusal of a session older than 30 minutes comes through in its own words.
 */

const SLOW = { timeout: 10_000 };

const TOO_LATE =
  "For your safety, a first password can be set only within 30 minutes of signing in with a one-time link. Ask an admin for a new link (Users, Send password reset), or sign in again with a new start link.";

async function accountWithoutPassword() {
  serveSignInMethods();
  const view = renderRoute("/account", {
    session: sessionFixture(
      userFixture({ hasPassword: false, hasOidcLink: false }),
    ),
  });
  await screen.findByRole(
    "heading",
    { level: 2, name: "Set a password" },
    SLOW,
  );
  return view;
}

describe("setting a first password, within 30 minutes of the link's sign-in", () => {
  it("says up front that it must be done within 30 minutes of signing in with the link", async () => {
    await accountWithoutPassword();
    expect(
      screen.getByText(
        /do it within 30 minutes of signing in with the link\. After that, you need a new link/,
      ),
    ).toBeVisible();
  });

  it("shows the proxy's words when it refuses a session too old, beside the field and in the summary", async () => {
    const sent = servePost(AUTH_PATHS.firstPassword, () =>
      json({ ...problemFixture("FORBIDDEN", 403), detail: TOO_LATE }, 403),
    );
    const { user } = await accountWithoutPassword();
    await fill(
      user,
      screen.getByLabelText("New password"),
      "a brand new password",
    );
    await fill(
      user,
      screen.getByLabelText("Confirm new password"),
      "a brand new password",
    );
    await user.click(screen.getByRole("button", { name: "Set password" }));
    await waitFor(() =>
      expect(screen.getByRole("alert")).toHaveTextContent(TOO_LATE),
    );
    expect(sent).toHaveLength(1);
    expect(
      screen.queryByText(/could not be saved/, { exact: false }),
    ).not.toBeInTheDocument();
    // The field carries the same words, for a screen reader on it.
    expect(screen.getByLabelText("New password")).toHaveAccessibleDescription(
      expect.stringContaining("within 30 minutes") as unknown as string,
    );
  });
});
