// Recent checks follow the person, not the browser: served from the audit log, they are there
// after a reload and at another desk once that person signs in, and nobody else sees them.
import type { Browser } from "@playwright/test";
import { createStaffUser, proxyStorePath } from "./auth/sign-in.ts";
import { expect, test } from "./fixtures.ts";
import { stackEnv } from "./stack-env.ts";

test.use({ signedInAs: null });

async function desk(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  return { context, page: await context.newPage() };
}

test("recent checks follow the person to another desk, and nobody else sees them", async ({
  browser,
  baseURL,
}) => {
  // Three browser contexts and two users made through the CLI: 13 s on a quiet machine, past
  // the 30 s limit once on a busy one. Three times the time.
  test.slow();
  const { dataDir } = await stackEnv();
  const store = proxyStorePath(dataDir);
  const person = await createStaffUser(baseURL!, store, "staff");
  const colleague = await createStaffUser(baseURL!, store, "staff");

  // The first desk: two checks, then a reload.
  const first = await desk(browser, baseURL!);
  await first.context.addCookies([{ ...person.session, url: baseURL! }]);
  await first.page.goto("/vehicle/AB12CDE");
  await expect(
    first.page.getByRole("heading", { level: 2, name: "Insured" }),
  ).toBeVisible();
  await first.page.goto("/compliance/FN19OUT");
  await expect(
    first.page.getByRole("heading", { level: 2, name: "Not compliant" }),
  ).toBeVisible();
  await first.page.reload();
  const recent = first.page.locator("section.recent-checks");
  await expect(
    recent.getByRole("link", { name: /Insurance: Insured/ }),
  ).toBeVisible();
  await expect(
    recent.getByRole("link", { name: /Compliance: Not compliant/ }),
  ).toBeVisible();
  await first.context.close();

  // Another desk, another browser: the same person signs in with their password.
  const second = await desk(browser, baseURL!);
  await second.page.goto("/sign-in");
  await second.page.getByLabel("Email address").fill(person.email);
  await second.page.getByLabel("Password").fill(person.password);
  await second.page.getByRole("button", { name: "Sign in" }).click();
  const there = second.page.locator("section.recent-checks");
  await expect(there.getByRole("link")).toHaveCount(2);
  // Newest first, each a link back to its answer.
  await expect(there.getByRole("link").first()).toHaveAccessibleName(
    /FN19 OUT.*Compliance: Not compliant/,
  );
  await expect(there.getByRole("link").first()).toHaveAttribute(
    "href",
    "/compliance/FN19OUT",
  );
  await second.context.close();

  // A colleague's browser lists none of them.
  const third = await desk(browser, baseURL!);
  await third.context.addCookies([{ ...colleague.session, url: baseURL! }]);
  await third.page.goto("/");
  await expect(
    third.page.getByText("Checks you make will be listed here."),
  ).toBeVisible();
  await expect(
    third.page.locator("section.recent-checks").getByRole("link"),
  ).toHaveCount(0);
  await third.context.close();
});
