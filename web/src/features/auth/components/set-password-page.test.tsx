import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { AUTH_PATHS } from "@vics/shared";
import { json } from "../../../testing/api-handlers.ts";
import {
  servePost,
  serveSession,
  sessionFixture,
  userWithRole,
} from "../../../testing/auth-fixtures.ts";
import { problemFixture } from "../../../testing/fixtures.ts";
import { fill } from "../../../testing/fill.ts";
import { renderRoute } from "../../../testing/render-route.tsx";

const SLOW = { timeout: 10_000 };

const LONG = "a garden full of owls";

async function openLink(answer: (body: unknown) => Response) {
  window.history.replaceState(null, "", "/account/set-password#token=inv-9");
  const sent = servePost(AUTH_PATHS.setPassword, answer);
  const view = renderRoute("/account/set-password#token=inv-9", {
    session: null,
  });
  await screen.findByRole(
    "heading",
    { level: 1, name: "Create your password" },
    SLOW,
  );
  return { ...view, sent };
}

async function submit(
  user: Awaited<ReturnType<typeof openLink>>["user"],
  password: string,
  confirmation: string,
) {
  if (password)
    await fill(user, screen.getByLabelText("New password"), password);
  if (confirmation)
    await fill(
      user,
      screen.getByLabelText("Confirm new password"),
      confirmation,
    );
  await user.click(
    screen.getByRole("button", { name: "Save password and sign in" }),
  );
}

describe("setting a password from an invitation or reset link", () => {
  it("takes the token out of the address bar and says the one rule: 12 characters or more", async () => {
    await openLink(() => json(sessionFixture()));
    expect(window.location.hash).toBe("");
    const password = screen.getByLabelText("New password");
    expect(password).toHaveAttribute("autocomplete", "new-password");
    expect(password).toHaveAccessibleDescription(
      "Use 12 characters or more. There are no other rules: a few words you will remember are a good choice.",
    );
  });

  it("asks for 12 characters or more, and the same password twice, before sending", async () => {
    const { user, sent } = await openLink(() => json(sessionFixture()));
    await submit(user, "too short", "too short");
    expect(screen.getByRole("alert")).toHaveTextContent(
      "Your password must be 12 characters or more",
    );
    await user.clear(screen.getByLabelText("New password"));
    await user.clear(screen.getByLabelText("Confirm new password"));
    await submit(user, LONG, "a garden full of owl");
    const summary = screen.getByRole("alert");
    expect(
      within(summary).getByRole("link", { name: "The passwords do not match" }),
    ).toHaveAttribute("href", "#confirm-password");
    expect(sent).toHaveLength(0);
  });

  it("shows the proxy's reason when it refuses the password, in its words", async () => {
    const { user } = await openLink(() =>
      json(
        {
          ...problemFixture("MALFORMED_REQUEST", 400),
          detail:
            "This password is too common. Choose one that is harder to guess.",
        },
        400,
      ),
    );
    await submit(user, "password1234", "password1234");
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "This password is too common. Choose one that is harder to guess.",
    );
    expect(screen.getByLabelText("New password")).toHaveAttribute(
      "aria-invalid",
      "true",
    );
  });

  it("sends the token and the password, and signs the user in", async () => {
    const invited = userWithRole("staff");
    const { user, sent, router } = await openLink(() => {
      serveSession(() => sessionFixture(invited));
      return json(sessionFixture(invited));
    });
    await submit(user, LONG, LONG);
    expect(
      await screen.findByRole(
        "heading",
        { level: 1, name: "Check a vehicle’s insurance" },
        SLOW,
      ),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe("/");
    expect(sent.map((request) => request.body)).toEqual([
      { token: "inv-9", password: LONG },
    ]);
    expect(screen.getByRole("banner")).toHaveTextContent(
      `Signed in as ${invited.name}`,
    );
  });

  it("explains a link used or expired, and to ask an admin for another", async () => {
    const { user } = await openLink(() =>
      json(problemFixture("LINK_NOT_USABLE", 400), 400),
    );
    await submit(user, LONG, LONG);
    const heading = await screen.findByRole("heading", {
      level: 1,
      name: "This link cannot be used",
    });
    expect(heading).toHaveFocus();
    expect(
      screen.getByText("Ask an admin to send you a new link."),
    ).toBeVisible();
  });
});
