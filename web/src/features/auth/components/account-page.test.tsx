import { describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { AUTH_PATHS, type SignInMethods } from "@vics/shared";
import { http, HttpResponse } from "msw";
import { json } from "../../../testing/api-handlers.ts";
import {
  servePost,
  serveSignInMethods,
  sessionFixture,
  userFixture,
} from "../../../testing/auth-fixtures.ts";
import { server } from "../../../testing/server.ts";
import { browserNavigation } from "../../../lib/browser-navigation.ts";
import { problemFixture } from "../../../testing/fixtures.ts";
import { fill } from "../../../testing/fill.ts";
import { renderRoute } from "../../../testing/render-route.tsx";

const SLOW = { timeout: 10_000 };

function summaryValue(term: string): string {
  const dt = screen.getByText(term, { selector: "dt" });
  return dt.nextElementSibling?.textContent ?? "";
}

async function account(user = userFixture(), methods?: SignInMethods) {
  serveSignInMethods(methods);
  const view = renderRoute("/account", { session: sessionFixture(user) });
  await screen.findByRole("heading", { level: 1, name: "Your account" }, SLOW);
  return view;
}

type Typist = Awaited<ReturnType<typeof account>>["user"];

/** Types what is given (an empty value is left untyped) and presses `button`. */
async function change(
  user: Typist,
  current: string,
  password: string,
  confirmation = password,
  button = "Change password",
) {
  if (current)
    await fill(user, screen.getByLabelText("Current password"), current);
  if (password)
    await fill(user, screen.getByLabelText("New password"), password);
  if (confirmation)
    await fill(
      user,
      screen.getByLabelText("Confirm new password"),
      confirmation,
    );
  await user.click(screen.getByRole("button", { name: button }));
}

/** A first password: no current one, the new one twice, "Set password". */
async function setFirst(
  user: Typist,
  password: string,
  confirmation = password,
) {
  await change(user, "", password, confirmation, "Set password");
}

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

describe("the account page", () => {
  it("shows the name, email and role in words", async () => {
    await account(
      userFixture({
        name: "Priya Shah",
        email: "priya@example.org",
        role: "staff",
      }),
    );
    expect(summaryValue("Name")).toBe("Priya Shah");
    expect(summaryValue("Email address")).toBe("priya@example.org");
    expect(summaryValue("Role")).toBe(
      "Staff: single insurance and compliance checks",
    );
    await waitFor(() => expect(document.title).toBe("Your account – VICS"));
  });

  it("changes the password: sends the current and the new one, and says other sessions ended", async () => {
    const sent = servePost(
      AUTH_PATHS.changePassword,
      () => new HttpResponse(null, { status: 204 }),
    );
    const { user } = await account();
    await change(user, "the old password", "a brand new password");
    const title = await screen.findByText(
      "Your password has been changed",
      {},
      SLOW,
    );
    const done = title.closest("[role=status]");
    expect(done).toHaveFocus();
    expect(done).toHaveTextContent(
      "You have been signed out of VICS everywhere else.",
    );
    expect(sent.map((request) => request.body)).toEqual([
      {
        currentPassword: "the old password",
        newPassword: "a brand new password",
      },
    ]);
    expect(screen.getByLabelText("Current password")).toHaveValue("");
  });

  it("says a wrong current password is wrong, on that field", async () => {
    servePost(AUTH_PATHS.changePassword, () =>
      json(problemFixture("UNAUTHORIZED", 401), 401),
    );
    const { user } = await account();
    await change(user, "not the password", "a brand new password");
    const summary = await screen.findByRole("alert");
    expect(
      within(summary).getByRole("link", {
        name: "Your current password is not right",
      }),
    ).toHaveAttribute("href", "#current-password");
  });

  it("says too many wrong current passwords in the proxy's words, on the current password's field", async () => {
    const detail =
      "Too many wrong current passwords. For your security, try again in 15 minutes.";
    servePost(AUTH_PATHS.changePassword, () =>
      json({ ...problemFixture("RATE_LIMITED", 429), detail }, 429, {
        "Retry-After": "900",
      }),
    );
    const { user } = await account();
    await change(user, "a guess of mine", "a brand new password");
    const summary = await screen.findByRole("alert");
    expect(within(summary).getByRole("link", { name: detail })).toHaveAttribute(
      "href",
      "#current-password",
    );
  });

  it("sends a password change again by itself when the proxy was only busy (Retry-After: 1)", async () => {
    let tries = 0;
    servePost(AUTH_PATHS.changePassword, () =>
      ++tries === 1
        ? json(problemFixture("RATE_LIMITED", 429), 429, { "Retry-After": "1" })
        : new Response(null, { status: 204 }),
    );
    const { user } = await account();
    await change(user, "the old password", "a brand new password");
    expect(
      await screen.findByText(/Your password has been changed/, {}, SLOW),
    ).toBeVisible();
    expect(tries).toBe(2);
  });

  it("shows the proxy's reason for refusing the new password", async () => {
    servePost(AUTH_PATHS.changePassword, () =>
      json(
        {
          ...problemFixture("MALFORMED_REQUEST", 400),
          detail: "This password is too common.",
        },
        400,
      ),
    );
    const { user } = await account();
    await change(user, "the old password", "password12345");
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "This password is too common.",
    );
  });

  it("checks the new password's length and its repeat before sending", async () => {
    const sent = servePost(
      AUTH_PATHS.changePassword,
      () => new HttpResponse(null, { status: 204 }),
    );
    const { user } = await account();
    await change(user, "the old password", "short");
    expect(screen.getByRole("alert")).toHaveTextContent(
      "Your password must be 12 characters or more",
    );
    expect(sent).toHaveLength(0);
  });

  it("offers no password to someone who signs in through their organisation", async () => {
    await account(userFixture({ hasPassword: false, hasOidcLink: true }));
    expect(screen.queryByLabelText("Current password")).not.toBeInTheDocument();
    expect(screen.queryByLabelText("New password")).not.toBeInTheDocument();
    expect(
      screen.getByText(/You sign in through your organisation/),
    ).toBeVisible();
  });

  it("says passwords are off, and offers none, when the server has them off", async () => {
    await account(userFixture({ hasPassword: false }), {
      local: false,
      oidc: { label: "Sign in with Okta", available: true },
    });
    expect(
      await screen.findByText(
        /Passwords are turned off on this server/,
        {},
        SLOW,
      ),
    ).toBeVisible();
    expect(screen.queryByLabelText("New password")).not.toBeInTheDocument();
    expect(
      screen.getByRole("button", { name: "Link my organisation sign-in" }),
    ).toBeVisible();
  });

  it("offers to sign out of every session, through the page that says what goes", async () => {
    await account();
    expect(
      screen.getByRole("link", { name: "Sign out of every session" }),
    ).toHaveAttribute("href", "/sign-out?everywhere=yes");
  });

  it("offers to link the organisation sign-in, sending the browser to the provider", async () => {
    const assign = vi
      .spyOn(browserNavigation, "assign")
      .mockImplementation(() => {});
    const sent = servePost(AUTH_PATHS.oidcLink, () =>
      json({ redirectTo: "https://id.example.org/auth?state=s" }),
    );
    const { user } = await account(userFixture({ hasOidcLink: false }), {
      local: true,
      oidc: { label: "Sign in with Okta", available: true },
    });
    await user.click(
      await screen.findByRole(
        "button",
        { name: "Link my organisation sign-in" },
        SLOW,
      ),
    );
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith(
        "https://id.example.org/auth?state=s",
      ),
    );
    expect(sent).toHaveLength(1);
  });

  it("says the link is made, and lets its owner undo it", async () => {
    serveSignInMethods({
      local: true,
      oidc: { label: "Sign in with Okta", available: true },
    });
    let deleted = 0;
    server.use(
      http.delete(AUTH_PATHS.oidcLink, () => {
        deleted++;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = renderRoute("/account?oidc-link=linked", {
      session: sessionFixture(userFixture({ hasOidcLink: true })),
    });
    expect(
      await screen.findByText(
        "Your organisation sign-in is linked: you can sign in with it from now on.",
        {},
        SLOW,
      ),
    ).toBeVisible();
    await user.click(
      screen.getByRole("button", { name: "Unlink my organisation sign-in" }),
    );
    await waitFor(() => expect(deleted).toBe(1));
  });

  it("offers no unlink when passwords are off: the link is the only way in", async () => {
    serveSignInMethods({
      local: false,
      oidc: { label: "Sign in with Okta", available: true },
    });
    renderRoute("/account", {
      session: sessionFixture(userFixture({ hasOidcLink: true })),
    });
    expect(
      await screen.findByText(
        "Your organisation sign-in (Sign in with Okta) is linked to VICS.",
        {},
        SLOW,
      ),
    ).toBeVisible();
    expect(
      screen.queryByRole("button", { name: "Unlink my organisation sign-in" }),
    ).not.toBeInTheDocument();
  });

  it("says why a link was refused", async () => {
    serveSignInMethods({
      local: true,
      oidc: { label: "Sign in with Okta", available: true },
    });
    renderRoute("/account?oidc-link=linked-elsewhere", {
      session: sessionFixture(userFixture()),
    });
    const notice = await screen.findByRole("alert", {}, SLOW);
    expect(notice).toHaveTextContent(
      "That organisation sign-in is linked to another VICS account",
    );
  });
});

// An account with no password (signed in by a one-time link) sets a first one, only within 30
// minutes of the link's sign-in (decision 053): the form says so up front, and the proxy's
// refusal of a session older than that comes through in its own words.
describe("the account page's first password", () => {
  it("lets an account with no password (signed in by a one-time link) set one, then offers to change it", async () => {
    const without = userFixture({ hasPassword: false, hasOidcLink: false });
    const sent = servePost(AUTH_PATHS.firstPassword, () =>
      json(sessionFixture({ ...without, hasPassword: true })),
    );
    const { user } = await account(without);
    expect(
      screen.queryByText(/there is no VICS password/),
    ).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Current password")).not.toBeInTheDocument();
    expect(
      screen.getByRole("heading", { level: 2, name: "Set a password" }),
    ).toBeVisible();
    await setFirst(user, "a brand new password");
    const title = await screen.findByText(
      "Your password has been set",
      {},
      SLOW,
    );
    const done = title.closest("[role=status]");
    expect(done).toHaveFocus();
    expect(done).toHaveTextContent(
      "From now on, sign in with your email address and this password.",
    );
    expect(sent.map((request) => request.body)).toEqual([
      { newPassword: "a brand new password" },
    ]);
    // The page now does what an account with a password does.
    expect(
      screen.getByRole("heading", { level: 2, name: "Change your password" }),
    ).toBeVisible();
    expect(
      screen.queryByRole("heading", { level: 2, name: "Set a password" }),
    ).not.toBeInTheDocument();
  });

  it("checks the first password before sending, and shows the proxy's reason for refusing one", async () => {
    const sent = servePost(AUTH_PATHS.firstPassword, () =>
      json(
        {
          ...problemFixture("CONFLICT", 409),
          detail:
            "Your account has a password already. To change it, give your current password.",
        },
        409,
      ),
    );
    const { user } = await account(userFixture({ hasPassword: false }));
    await setFirst(user, "short", "");
    expect(screen.getByRole("alert")).toHaveTextContent(
      "Your password must be 12 characters or more",
    );
    expect(sent).toHaveLength(0);
    await user.clear(screen.getByLabelText("New password"));
    await setFirst(user, "a brand new password");
    await waitFor(() =>
      expect(screen.getByRole("alert")).toHaveTextContent(
        "Your account has a password already.",
      ),
    );
  });

  it("says up front that it must be done within 30 minutes of signing in with the link (decision 053)", async () => {
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
    await setFirst(user, "a brand new password");
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
