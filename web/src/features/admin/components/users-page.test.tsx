import { describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { AUTH_PATHS, type AdminUser, type SignInMethods } from "@vics/shared";
import { http } from "msw";
import { json } from "../../../testing/api-handlers.ts";
import {
  servePost,
  serveSignInMethods,
  sessionFixture,
  userWithRole,
} from "../../../testing/auth-fixtures.ts";
import { problemFixture } from "../../../testing/fixtures.ts";
import { renderRoute } from "../../../testing/render-route.tsx";
import { formatDateTime } from "../../../lib/dates.ts";
import { server } from "../../../testing/server.ts";

const SLOW = { timeout: 10_000 };
const ADMIN = userWithRole("admin");

function adminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id: "u-ann",
    email: "ann@example.org",
    name: "Ann Jones",
    role: "staff",
    state: "active",
    signsInWith: ["password"],
    createdAt: "2026-11-01T09:00:00.000Z",
    linkAllowedUntil: null,
    ...overrides,
  };
}

const ME: AdminUser = adminUser({
  id: ADMIN.id,
  email: ADMIN.email,
  name: ADMIN.name,
  role: "admin",
});

function serveUsers(users: AdminUser[]) {
  server.use(http.get(AUTH_PATHS.users, () => json({ users })));
}

/** PATCH users/:id: records each change and answers with the user changed. */
function servePatch(
  answer: (id: string, body: Record<string, unknown>) => Response,
) {
  const sent: { id: string; body: unknown }[] = [];
  server.use(
    http.patch(`${AUTH_PATHS.users}/:id`, async ({ params, request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ id: String(params.id), body });
      return answer(String(params.id), body);
    }),
  );
  return sent;
}

async function usersPage(
  users: AdminUser[] = [ME, adminUser()],
  methods?: SignInMethods,
) {
  serveSignInMethods(methods);
  serveUsers(users);
  const view = renderRoute("/admin/users", { session: sessionFixture(ADMIN) });
  await screen.findByRole("table", {}, SLOW);
  return view;
}

function rowOf(email: string): HTMLElement {
  const row = screen.getByText(email).closest("tr");
  if (!row) throw new Error(`no row for ${email}`);
  return row;
}

const linkAnswer = (user: AdminUser) =>
  json(
    {
      user,
      link: "http://127.0.0.1:3000/account/set-password#token=abc123",
      expiresAt: "2026-11-27T14:05:00.000Z",
    },
    201,
  );

describe("the users page", () => {
  it("lists everyone with their role, state and way of signing in", async () => {
    await usersPage([
      ME,
      adminUser(),
      adminUser({
        id: "u-bo",
        email: "bo@example.org",
        name: "",
        role: "fleet",
        state: "invited",
        signsInWith: [],
      }),
      adminUser({
        id: "u-cy",
        email: "cy@example.org",
        state: "disabled",
        signsInWith: ["password", "oidc"],
      }),
    ]);
    const cells = (email: string) =>
      within(rowOf(email))
        .getAllByRole("cell")
        .slice(0, 3)
        .map((cell) => cell.textContent);
    expect(cells("ann@example.org")).toEqual(["Staff", "Active", "Password"]);
    expect(cells("bo@example.org")).toEqual([
      "Fleet",
      "Invited",
      "Not set up yet",
    ]);
    expect(cells("cy@example.org")).toEqual([
      "Staff",
      "Disabled",
      "Password and organisation sign-in",
    ]);
    expect(within(rowOf(ADMIN.email)).getByText("(you)")).toBeVisible();
    // Nobody disables themselves by a slip of the mouse.
    expect(
      within(rowOf(ADMIN.email)).queryByRole("button", { name: /^Disable/ }),
    ).not.toBeInTheDocument();
  });

  it("invites a user and shows the one-time link once, with its expiry and a copy button", async () => {
    const invited = adminUser({
      id: "u-new",
      email: "new@example.org",
      name: "New Person",
      role: "fleet",
      state: "invited",
      signsInWith: [],
    });
    const sent = servePost(AUTH_PATHS.users, () => linkAnswer(invited));
    const { user } = await usersPage();
    // After user-event's setup, which puts a clipboard of its own in place.
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, "clipboard", {
      value: { writeText },
      configurable: true,
    });

    await user.type(
      screen.getByRole("textbox", { name: "Email address" }),
      "new@example.org",
    );
    await user.type(
      screen.getByRole("textbox", { name: "Name (optional)" }),
      "New Person",
    );
    await user.click(screen.getByRole("radio", { name: "Fleet" }));
    await user.click(
      screen.getByRole("button", { name: "Create invitation link" }),
    );

    const notice = await screen.findByRole("region", {
      name: "Invitation link for New Person",
    });
    await waitFor(() => expect(notice).toHaveFocus());
    expect(notice).toHaveTextContent(
      "It works once, until 27 November 2026 at 14:05 (UK time).",
    );
    expect(notice).toHaveTextContent(
      "This is the only time the link is shown.",
    );
    expect(within(notice).getByRole("textbox", { name: "Link" })).toHaveValue(
      "http://127.0.0.1:3000/account/set-password#token=abc123",
    );
    await user.click(within(notice).getByRole("button", { name: "Copy link" }));
    expect(writeText).toHaveBeenCalledWith(
      "http://127.0.0.1:3000/account/set-password#token=abc123",
    );
    // Said once the clipboard has answered, in a render after the click.
    expect(await within(notice).findByText("Link copied.")).toBeVisible();
    expect(sent.map((request) => request.body)).toEqual([
      { email: "new@example.org", name: "New Person", role: "fleet" },
    ]);
    // The new user is in the list, and the form is ready for the next.
    expect(within(rowOf("new@example.org")).getByText("Invited")).toBeVisible();
    expect(screen.getByRole("textbox", { name: "Email address" })).toHaveValue(
      "",
    );

    await user.click(within(notice).getByRole("button", { name: "Done" }));
    expect(screen.queryByText(/abc123/)).not.toBeInTheDocument();
  });

  it("says what is missing from an invitation, in an error summary, before sending", async () => {
    const sent = servePost(AUTH_PATHS.users, () => linkAnswer(adminUser()));
    const { user } = await usersPage();
    await user.type(
      screen.getByRole("textbox", { name: "Email address" }),
      "not-an-email",
    );
    await user.click(
      screen.getByRole("button", { name: "Create invitation link" }),
    );
    const summary = screen.getByRole("alert");
    expect(
      within(summary)
        .getAllByRole("link")
        .map((link) => [link.textContent, link.getAttribute("href")]),
    ).toEqual([
      ["Enter an email address, like name@example.org", "#invite-email"],
      ["Choose a role", "#invite-role"],
    ]);
    expect(sent).toHaveLength(0);
  });

  it("shows the proxy's reason when it refuses an invitation", async () => {
    servePost(AUTH_PATHS.users, () =>
      json(
        {
          ...problemFixture("MALFORMED_REQUEST", 400),
          detail: "There is already a user with the email ann@example.org.",
        },
        400,
      ),
    );
    const { user } = await usersPage();
    await user.type(
      screen.getByRole("textbox", { name: "Email address" }),
      "ann@example.org",
    );
    await user.click(screen.getByRole("radio", { name: "Staff" }));
    await user.click(
      screen.getByRole("button", { name: "Create invitation link" }),
    );
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "There is already a user with the email ann@example.org.",
    );
  });

  it("changes a role, and says so", async () => {
    const sent = servePatch((_, body) =>
      json({ user: adminUser({ role: body.role as AdminUser["role"] }) }),
    );
    const { user } = await usersPage();
    await user.click(
      within(rowOf("ann@example.org")).getByRole("button", {
        name: "Change role for Ann Jones",
      }),
    );
    await user.selectOptions(
      screen.getByRole("combobox", { name: "New role for Ann Jones" }),
      "fleet",
    );
    await user.click(
      screen.getByRole("button", { name: "Save role for Ann Jones" }),
    );
    const done = await screen.findByText("Ann Jones’s role is now Fleet.");
    await waitFor(() => expect(done.closest("[role=status]")).toHaveFocus());
    expect(sent).toEqual([{ id: "u-ann", body: { role: "fleet" } }]);
    expect(
      within(rowOf("ann@example.org")).getAllByRole("cell")[0],
    ).toHaveTextContent("Fleet");
  });

  it("disables a user only after asking, and enables them again the same way", async () => {
    const sent = servePatch((_, body) =>
      json({
        user: adminUser({ state: body.disabled ? "disabled" : "active" }),
      }),
    );
    const { user } = await usersPage();
    await user.click(
      within(rowOf("ann@example.org")).getByRole("button", {
        name: "Disable for Ann Jones",
      }),
    );
    expect(sent).toHaveLength(0);
    expect(
      within(rowOf("ann@example.org")).getByText(
        "Disable Ann Jones? They are signed out at once and cannot sign in until an admin enables them.",
      ),
    ).toBeVisible();
    await user.click(
      screen.getByRole("button", { name: "Yes, disable for Ann Jones" }),
    );
    expect(
      await screen.findByText(
        "Ann Jones is disabled: their sessions have ended.",
      ),
    ).toBeVisible();
    expect(
      within(rowOf("ann@example.org")).getByText("Disabled"),
    ).toBeVisible();

    await user.click(
      within(rowOf("ann@example.org")).getByRole("button", {
        name: "Enable for Ann Jones",
      }),
    );
    await user.click(
      screen.getByRole("button", { name: "Yes, enable for Ann Jones" }),
    );
    expect(
      await screen.findByText("Ann Jones is enabled: they can sign in again."),
    ).toBeVisible();
    expect(sent.map((each) => each.body)).toEqual([
      { disabled: true },
      { disabled: false },
    ]);
  });

  it("keeps the user as they were when the proxy refuses, with its reason", async () => {
    servePatch(() =>
      json(
        {
          ...problemFixture("MALFORMED_REQUEST", 400),
          detail: "VICS must keep at least one active admin.",
        },
        400,
      ),
    );
    const { user } = await usersPage();
    await user.click(
      within(rowOf("ann@example.org")).getByRole("button", {
        name: "Disable for Ann Jones",
      }),
    );
    await user.click(
      screen.getByRole("button", { name: "Yes, disable for Ann Jones" }),
    );
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("That could not be done");
    expect(alert).toHaveTextContent(
      "VICS must keep at least one active admin.",
    );
    expect(within(rowOf("ann@example.org")).getByText("Active")).toBeVisible();
  });

  it("sends a password reset and shows its link once", async () => {
    const sent = servePost(`${AUTH_PATHS.users}/u-ann/reset`, () =>
      linkAnswer(adminUser()),
    );
    const { user } = await usersPage();
    await user.click(
      within(rowOf("ann@example.org")).getByRole("button", {
        name: "Send password reset for Ann Jones",
      }),
    );
    const notice = await screen.findByRole("region", {
      name: "Password reset link for Ann Jones",
    });
    expect(notice).toHaveTextContent(
      "Send this link to ann@example.org yourself",
    );
    expect(sent).toEqual([
      { body: undefined, contentType: null, client: "web" },
    ]);
  });

  it("undoes a user's organisation sign-in link, after asking, and shows the list again", async () => {
    const linked = adminUser({ signsInWith: ["password", "oidc"] });
    const unlinked: string[] = [];
    server.use(
      http.delete(`${AUTH_PATHS.users}/:id/oidc-link`, ({ params }) => {
        unlinked.push(String(params.id));
        serveUsers([ME, adminUser()]);
        return json({ user: adminUser() });
      }),
    );
    const { user } = await usersPage([ME, linked]);
    await user.click(
      within(rowOf("ann@example.org")).getByRole("button", {
        name: "Unlink organisation sign-in for Ann Jones",
      }),
    );
    expect(unlinked).toEqual([]);
    await user.click(
      within(rowOf("ann@example.org")).getByRole("button", {
        name: "Yes, unlink for Ann Jones",
      }),
    );
    expect(
      await screen.findByText(
        "Ann Jones’s organisation sign-in is unlinked: their sessions have ended.",
      ),
    ).toBeVisible();
    expect(unlinked).toEqual(["u-ann"]);
    await waitFor(() =>
      expect(
        within(rowOf("ann@example.org")).getAllByRole("cell")[2],
      ).toHaveTextContent("Password"),
    );
  });

  it("lets an admin allow a user in use to link their organisation sign-in, only when the proxy offers one", async () => {
    const sent = servePost(`${AUTH_PATHS.users}/u-ann/oidc-link`, () =>
      json({ user: adminUser() }),
    );
    const { user } = await usersPage([ME, adminUser()], {
      local: true,
      oidc: { label: "Sign in with Okta", available: true },
    });
    await user.click(
      await within(rowOf("ann@example.org")).findByRole("button", {
        name: "Allow organisation sign-in to link for Ann Jones",
      }),
    );
    expect(
      await screen.findByText(
        "Ann Jones’s next organisation sign-in within 72 hours, with their email address, links to their account.",
      ),
    ).toBeVisible();
    expect(sent).toHaveLength(1);
  });

  it("shows a leave to link that is still open, and lets the admin withdraw it", async () => {
    const until = new Date(Date.now() + 3_600_000).toISOString();
    let withdrawn = 0;
    server.use(
      http.delete(`${AUTH_PATHS.users}/u-ann/oidc-link`, () => {
        withdrawn++;
        return json({ user: adminUser() });
      }),
    );
    const { user } = await usersPage(
      [ME, adminUser({ linkAllowedUntil: until })],
      {
        local: true,
        oidc: { label: "Sign in with Okta", available: true },
      },
    );
    const row = rowOf("ann@example.org");
    expect(
      await within(row).findByText(
        `May link their organisation sign-in until ${formatDateTime(until)}`,
      ),
    ).toBeVisible();
    expect(
      within(row).queryByRole("button", {
        name: "Allow organisation sign-in to link for Ann Jones",
      }),
    ).not.toBeInTheDocument();
    await user.click(
      within(row).getByRole("button", {
        name: "Withdraw the leave to link for Ann Jones",
      }),
    );
    expect(
      await screen.findByText(
        "Ann Jones’s organisation sign-in can no longer link by email.",
      ),
    ).toBeVisible();
    expect(withdrawn).toBe(1);
  });

  it("offers no organisation sign-in action when the proxy has none", async () => {
    await usersPage([ME, adminUser()]);
    expect(
      within(rowOf("ann@example.org")).queryByRole("button", {
        name: /organisation sign-in/,
      }),
    ).not.toBeInTheDocument();
  });
});
