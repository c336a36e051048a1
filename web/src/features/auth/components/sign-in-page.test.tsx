import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { AUTH_PATHS, CLIENT_HEADER } from "@vics/shared";
import { json, serveInsurance } from "../../../testing/api-handlers.ts";
import {
  serveSession,
  serveSignIn,
  serveSignInMethods,
  sessionFixture,
  SIGNED_IN_USER,
} from "../../../testing/auth-fixtures.ts";
import { insuranceFixture, problemFixture } from "../../../testing/fixtures.ts";
import { fill } from "../../../testing/fill.ts";
import { renderRoute } from "../../../testing/render-route.tsx";

const SLOW = { timeout: 10_000 };

async function signInPage(url = "/sign-in") {
  serveSignInMethods();
  const view = renderRoute(url, { session: null });
  await screen.findByRole("textbox", { name: "Email address" }, SLOW);
  return view;
}

async function fillIn(
  user: Awaited<ReturnType<typeof signInPage>>["user"],
  email: string,
  password: string,
) {
  const field = await screen.findByRole(
    "textbox",
    { name: "Email address" },
    SLOW,
  );
  if (email) await fill(user, field, email);
  if (password) await fill(user, screen.getByLabelText("Password"), password);
  await user.click(screen.getByRole("button", { name: "Sign in" }));
}

describe("the sign-in page", () => {
  it("has an email address, a password and a Sign in button, GOV.UK style", async () => {
    await signInPage();
    const email = screen.getByRole("textbox", { name: "Email address" });
    expect(email).toHaveAttribute("type", "email");
    expect(email).toHaveAttribute("autocomplete", "username");
    const password = screen.getByLabelText("Password");
    expect(password).toHaveAttribute("type", "password");
    expect(password).toHaveAttribute("autocomplete", "current-password");
    expect(screen.getByRole("button", { name: "Sign in" })).toHaveAttribute(
      "type",
      "submit",
    );
    expect(document.title).toBe("Sign in – VICS");
    // Nobody is signed in: no navigation and no "Sign out".
    expect(
      screen.queryByRole("navigation", { name: "Primary" }),
    ).not.toBeInTheDocument();
    expect(
      screen.queryByRole("button", { name: "Sign out" }),
    ).not.toBeInTheDocument();
  });

  it("says what is missing in an error summary that takes focus and links to each field", async () => {
    const sent = serveSignIn();
    const { user } = await signInPage();
    await fillIn(user, "", "");
    const summary = screen.getByRole("alert");
    expect(
      within(summary).getByRole("heading", { name: "There is a problem" }),
    ).toBeVisible();
    const links = within(summary).getAllByRole("link");
    expect(
      links.map((link) => [link.textContent, link.getAttribute("href")]),
    ).toEqual([
      ["Enter your email address", "#email"],
      ["Enter your password", "#password"],
    ]);
    expect(summary.parentElement).toHaveFocus();
    expect(
      screen.getByRole("textbox", { name: "Email address" }),
    ).toHaveAttribute("aria-invalid", "true");
    expect(document.title).toBe("Error: Sign in – VICS");
    await user.click(links[1] as HTMLElement);
    expect(screen.getByLabelText("Password")).toHaveFocus();
    expect(sent).toHaveLength(0);
  });

  it("signs in with the app's header and JSON, then goes where the user was going", async () => {
    const sent = serveSignIn();
    serveInsurance((registration) => json(insuranceFixture({ registration })));
    const { user, router } = await signInPage(
      `/sign-in?returnTo=${encodeURIComponent("/vehicle/AB12CDE?from=email")}`,
    );
    await fillIn(user, " sam.taylor@example.org ", "correct horse battery");
    expect(
      await screen.findByRole("heading", { name: "Insured" }, SLOW),
    ).toBeVisible();
    expect(router.state.location.pathname + router.state.location.search).toBe(
      "/vehicle/AB12CDE?from=email",
    );
    expect(sent).toEqual([
      {
        body: {
          email: "sam.taylor@example.org",
          password: "correct horse battery",
        },
        contentType: "application/json",
        client: "web",
      },
    ]);
    expect(CLIENT_HEADER).toBe("X-VICS-Client");
    expect(screen.getByRole("banner")).toHaveTextContent(
      `Signed in as ${SIGNED_IN_USER.name}`,
    );
  });

  it("answers a wrong password and an unknown email alike, giving no hint which", async () => {
    serveSignIn(() => json(problemFixture("UNAUTHORIZED", 401), 401));
    const { user } = await signInPage();
    await fillIn(user, "nobody@example.org", "whatever it is");
    const first = await screen.findByRole("alert");
    expect(first).toHaveTextContent("The email or password is not right.");
    // The password goes; the email stays to be corrected.
    expect(screen.getByLabelText("Password")).toHaveValue("");
    expect(screen.getByRole("textbox", { name: "Email address" })).toHaveValue(
      "nobody@example.org",
    );

    await fillIn(user, "", "another try here");
    const second = await screen.findByRole("alert");
    expect(second.textContent).toBe(first.textContent);
    expect(second).not.toHaveTextContent(
      /account|exist|found|unknown|registered/i,
    );
  });

  it("says how long to wait after too many tries, from Retry-After", async () => {
    serveSignIn(() =>
      json(problemFixture("RATE_LIMITED", 429), 429, { "Retry-After": "840" }),
    );
    const { user } = await signInPage();
    await fillIn(user, "sam.taylor@example.org", "a guess of mine");
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "There have been too many tries to sign in. Wait 14 minutes, then try again.",
    );
  });

  it("sends a sign-in again by itself when the proxy was only busy checking others (Retry-After: 1)", async () => {
    let tries = 0;
    const sent = serveSignIn(() =>
      ++tries === 1
        ? json(problemFixture("RATE_LIMITED", 429), 429, { "Retry-After": "1" })
        : json(sessionFixture()),
    );
    const { user, router } = await signInPage();
    await fillIn(user, "sam.taylor@example.org", "the right password");
    await screen.findByRole(
      "heading",
      { level: 1, name: "Check a vehicle’s insurance" },
      SLOW,
    );
    expect(sent).toHaveLength(2);
    expect(router.state.location.pathname).toBe("/");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("says the proxy is busy, not that there were too many tries, when the second try is refused too", async () => {
    const sent = serveSignIn(() =>
      json(problemFixture("RATE_LIMITED", 429), 429, { "Retry-After": "1" }),
    );
    const { user } = await signInPage();
    await fillIn(user, "sam.taylor@example.org", "the right password");
    expect(await screen.findByRole("alert", {}, SLOW)).toHaveTextContent(
      "VICS is checking many sign-ins at this moment. Try again in a few seconds.",
    );
    expect(sent).toHaveLength(2);
  });

  it("says a disabled account is disabled, and who can enable it", async () => {
    serveSignIn(() => json(problemFixture("ACCOUNT_DISABLED", 403), 403));
    const { user } = await signInPage();
    await fillIn(user, "sam.taylor@example.org", "the right password");
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Your account has been disabled. Ask an admin to enable it.",
    );
  });

  it("never returns to another site, however the address is spelled", async () => {
    serveSignIn();
    const { user, router } = await signInPage(
      `/sign-in?returnTo=${encodeURIComponent("//evil.example/steal")}`,
    );
    await fillIn(user, "sam.taylor@example.org", "correct horse battery");
    await screen.findByRole(
      "heading",
      { level: 1, name: "Check a vehicle’s insurance" },
      SLOW,
    );
    expect(router.state.location.pathname).toBe("/");
  });

  it("offers the organisation's sign-in as a link to the proxy, keeping where to return", async () => {
    serveSignInMethods({
      local: true,
      oidc: { label: "Sign in with Microsoft", available: true },
    });
    renderRoute(`/sign-in?returnTo=${encodeURIComponent("/fleet")}`, {
      session: null,
    });
    const button = await screen.findByRole(
      "link",
      { name: "Sign in with Microsoft" },
      SLOW,
    );
    expect(button).toHaveAttribute(
      "href",
      `${AUTH_PATHS.oidcStart}?returnTo=${encodeURIComponent("/fleet")}`,
    );
    expect(
      screen.getByText("Or sign in with your email address"),
    ).toBeVisible();
  });

  it("says why the organisation's sign-in was refused, and offers it again", async () => {
    serveSignInMethods({
      local: false,
      oidc: { label: "Sign in with Microsoft", available: true },
    });
    renderRoute("/sign-in?oidc=no-account", { session: null });
    const notice = await screen.findByRole("alert", {}, SLOW);
    expect(notice).toHaveTextContent("You have not been signed in");
    expect(notice).toHaveTextContent(
      "There is no VICS account for the email address your organisation gave. Ask an admin of VICS to invite you.",
    );
    expect(
      await screen.findByRole("link", { name: "Sign in with Microsoft" }),
    ).toBeVisible();
  });

  it("shows only the organisation's sign-in when passwords are off", async () => {
    serveSignInMethods({
      local: false,
      oidc: { label: "Sign in with Okta", available: true },
    });
    renderRoute("/sign-in", { session: null });
    expect(
      await screen.findByRole("link", { name: "Sign in with Okta" }, SLOW),
    ).toBeVisible();
    expect(screen.queryByLabelText("Password")).not.toBeInTheDocument();
  });

  it("says sign-in is unavailable while the proxy has not reached the organisation's provider", async () => {
    serveSignInMethods({
      local: false,
      oidc: { label: "Sign in with Okta", available: false },
    });
    renderRoute("/sign-in", { session: null });
    const notice = await screen.findByRole("status", {}, SLOW);
    expect(notice).toHaveTextContent(
      "Signing in is unavailable until VICS reaches your organisation’s sign-in service",
    );
    expect(
      screen.queryByRole("link", { name: "Sign in with Okta" }),
    ).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Password")).not.toBeInTheDocument();
  });

  it("sends someone already signed in straight on", async () => {
    serveSignInMethods();
    const { router } = renderRoute(
      `/sign-in?returnTo=${encodeURIComponent("/compliance")}`,
    );
    await screen.findByRole(
      "heading",
      { level: 1, name: "Check a vehicle’s compliance" },
      SLOW,
    );
    expect(router.state.location.pathname).toBe("/compliance");
  });
});

describe("pages that need a session", () => {
  it("send a signed-out visitor to sign in, with the page and its search to return to", async () => {
    serveSignInMethods();
    const { router } = renderRoute("/compliance?from=email", { session: null });
    await screen.findByRole(
      "heading",
      { level: 1, name: "Sign in to VICS" },
      SLOW,
    );
    expect(router.state.location.pathname).toBe("/sign-in");
    expect(
      new URLSearchParams(router.state.location.search).get("returnTo"),
    ).toBe("/compliance?from=email");
    // Arriving signed out is not a session that ended.
    expect(
      screen.queryByText("Your session has ended"),
    ).not.toBeInTheDocument();
  });

  it("wait for the proxy's answer on who is signed in before showing anything", async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    serveSession(() => sessionFixture());
    const { server } = await import("../../../testing/server.ts");
    const { http } = await import("msw");
    server.use(
      http.get(AUTH_PATHS.session, async () => {
        await answered;
        return json(sessionFixture());
      }),
    );
    renderRoute("/", { session: "ask" });
    expect(screen.getByText("Checking who is signed in…")).toBeVisible();
    expect(screen.queryByRole("heading", { level: 1 })).not.toBeInTheDocument();
    answer();
    expect(
      await screen.findByRole("heading", {
        level: 1,
        name: "Check a vehicle’s insurance",
      }),
    ).toBeVisible();
  });

  it("say so, and offer to try again, when the proxy cannot be reached", async () => {
    let up = false;
    const { server } = await import("../../../testing/server.ts");
    const { http, HttpResponse } = await import("msw");
    server.use(
      http.get(AUTH_PATHS.session, () =>
        up ? json(sessionFixture()) : HttpResponse.error(),
      ),
    );
    const { user } = renderRoute("/", { session: "ask" });
    expect(
      await screen.findByRole("heading", {
        name: "VICS cannot check who is signed in",
      }),
    ).toBeVisible();
    up = true;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(
      await screen.findByRole("heading", {
        level: 1,
        name: "Check a vehicle’s insurance",
      }),
    ).toBeVisible();
  });

  it("go to sign in when the session ends under them, saying so, and come back after", async () => {
    let signedIn = true;
    serveInsurance((registration) =>
      signedIn
        ? json(insuranceFixture({ registration }))
        : json(problemFixture("SIGN_IN_REQUIRED", 401), 401),
    );
    serveSignInMethods();
    const { user, router } = renderRoute("/vehicle/AB12CDE");
    await screen.findByRole("heading", { name: "Insured" }, SLOW);
    serveSession(() => (signedIn ? sessionFixture() : null));
    signedIn = false;

    await user.click(screen.getByRole("button", { name: "Check again" }));
    expect(
      await screen.findByText("Your session has ended", {}, SLOW),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe("/sign-in");
    expect(
      new URLSearchParams(router.state.location.search).get("returnTo"),
    ).toBe("/vehicle/AB12CDE");

    serveSignIn(() => {
      signedIn = true;
      return json(sessionFixture());
    });
    await fillIn(user, "sam.taylor@example.org", "correct horse battery");
    expect(
      await screen.findByRole("heading", { name: "Insured" }, SLOW),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe("/vehicle/AB12CDE");
  });
});
