// The first admin as `npm start` leaves them: signed in by the one-time link, with no password.
// The banner says "set a password on your account page": the page does that, Users then shows
// the account as active, and the password signs in. Over a proxy of its own (a fresh store).
import { expect, test } from "@playwright/test";
import { axeViolations } from "../axe.ts";
import { startFaultStack } from "../faults/fault-stack.ts";

test("the first admin, signed in by the link, sets a password on the account page and signs in with it", async ({
  browser,
}) => {
  test.slow();
  const { stack, close } = await startFaultStack();
  try {
    const context = await browser.newContext({ baseURL: stack.proxyUrl });
    await context.addCookies([{ ...stack.session, url: stack.proxyUrl }]);
    const page = await context.newPage();
    await page.goto("/");
    // "your name, at the top of every page", as the banner says.
    await page.getByRole("link", { name: "First admin" }).click();
    await expect(
      page.getByRole("heading", { level: 1, name: "Your account" }),
    ).toBeVisible();
    await expect(page.getByText(/there is no VICS password/)).toHaveCount(0);
    await expect(
      page.getByRole("heading", { level: 2, name: "Set a password" }),
    ).toBeVisible();
    // The page as it loads (the header link just clicked keeps focus, whose style is the
    // header's: not what this journey checks).
    await page.reload();
    await expect(
      page.getByRole("heading", { level: 2, name: "Set a password" }),
    ).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    const password = "the depot by the river gate";
    await page.getByLabel("New password", { exact: true }).fill(password);
    await page.getByLabel("Confirm new password").fill(password);
    await page.getByRole("button", { name: "Set password" }).click();
    await expect(page.getByText("Your password has been set")).toBeVisible();
    await expect(
      page.getByRole("heading", { level: 2, name: "Change your password" }),
    ).toBeVisible();

    await page.goto("/admin/users");
    const row = page.getByRole("row").filter({ hasText: "admin@localhost" });
    await expect(row).toContainText("Active");
    await expect(row).toContainText("Password");
    await expect(row).not.toContainText("Not set up yet");
    await context.close();

    // Another browser: the password signs in.
    const other = await browser.newContext({ baseURL: stack.proxyUrl });
    const signIn = await other.newPage();
    await signIn.goto("/sign-in");
    await signIn.getByLabel("Email address").fill("admin@localhost");
    await signIn.getByLabel("Password", { exact: true }).fill(password);
    await signIn.getByRole("button", { name: "Sign in" }).click();
    await expect(
      signIn.getByRole("link", { name: "First admin" }),
    ).toBeVisible();
    await other.close();
  } finally {
    await close();
  }
});
