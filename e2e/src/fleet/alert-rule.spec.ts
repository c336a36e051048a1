// A fleet's alert rule over the real stack: a fleet manager saves a fleet check as a fleet,
// follows "Alert rule" from its page, chooses which alerts go out and to whom, saves, and finds
// the choices kept after a reload; then an admin opens the Alerts page and its delivery log.
// axe on both pages.
import { axeViolations } from "../axe.ts";
import { expect, test } from "../fixtures.ts";
import { openNewSavedFleet } from "./fleet-user.ts";

// A fleet user of their own, signed in below; the admin comes later in the journey.
test.use({ signedInAs: null });

test("set an alert rule", async ({ page, context, baseURL, sessionFor }) => {
  // Two pages checked with axe, and a fleet check first.
  test.slow();
  const name = await openNewSavedFleet(
    page,
    context,
    baseURL!,
    ["AB12CDE", "LP08SED"],
    "Alerts",
  );

  await page.getByRole("link", { name: "Alert rule" }).click();
  await expect(
    page.getByRole("heading", { level: 1, name: `Fleet ${name} Alert rule` }),
  ).toBeVisible();
  const kinds = page.getByRole("group", {
    name: "Send these alerts by email and webhook",
  });
  const ending = page.getByRole("group", {
    name: "When insurance, MOT or road tax is ending, alert",
  });
  const emails = page.getByRole("textbox", { name: "Email addresses" });
  // A fleet that never set a rule: every kind and threshold, to no one yet.
  await expect(
    kinds.getByRole("checkbox", { name: "Fines paid" }),
  ).toBeChecked();
  await expect(emails).toHaveValue("");
  expect(await axeViolations(page)).toEqual([]);

  await kinds.getByRole("checkbox", { name: "Fines paid" }).uncheck();
  await ending.getByRole("checkbox", { name: "30 days before" }).uncheck();
  await emails.fill("Ann@example.org\nbob@example.org");
  await page.getByRole("button", { name: "Save the alert rule" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    "Alert rule saved.",
  );

  await page.reload();
  await expect(emails).toHaveValue("ann@example.org\nbob@example.org");
  await expect(
    kinds.getByRole("checkbox", { name: "Fines paid" }),
  ).not.toBeChecked();
  await expect(kinds.getByRole("checkbox", { name: "New fine" })).toBeChecked();
  await expect(
    ending.getByRole("checkbox", { name: "30 days before" }),
  ).not.toBeChecked();
  await expect(
    ending.getByRole("checkbox", { name: "14 days before" }),
  ).toBeChecked();
  // The urgent kinds still go at once, the rest in the digest.
  const instant = page.getByRole("group", { name: "Email these at once" });
  await expect(
    instant.getByRole("checkbox", { name: "MOT expired" }),
  ).toBeChecked();
  await expect(
    instant.getByRole("checkbox", { name: "New fine" }),
  ).not.toBeChecked();

  // The admin's side: the Alerts page, from the navigation.
  await context.clearCookies();
  await context.addCookies([{ ...(await sessionFor("admin")), url: baseURL! }]);
  await page.goto("/admin/data");
  const primary = page.getByRole("navigation", { name: "Primary" });
  await primary.getByRole("button", { name: "Admin" }).click();
  await primary.getByRole("link", { name: "Alerts" }).click();
  await expect(
    page.getByRole("heading", { level: 1, name: "Alerts" }),
  ).toBeVisible();
  const log = page.getByRole("region", { name: "Delivery log" });
  await expect(
    log
      .getByRole("table", { name: "Deliveries, newest first" })
      .or(log.getByText(/^No deliveries yet/)),
  ).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // A webhook: a loopback address is refused in words unless allowed for it; its secret is
  // shown once. Removed again after, asked twice: the stack's webhooks outlive the journey.
  const webhooks = page.getByRole("region", { name: "Webhooks" });
  const address = webhooks.getByRole("textbox", { name: "Address" });
  const hook = `E2E hook ${test.info().repeatEachIndex}-${Date.now()}`;
  await address.fill("http://127.0.0.1:9/vics-e2e");
  await webhooks.getByRole("textbox", { name: "What it is for" }).fill(hook);
  await webhooks.getByRole("button", { name: "Add the webhook" }).click();
  await expect(address).toHaveAccessibleDescription(/a loopback address/);
  await webhooks
    .getByRole("checkbox", { name: "Allow a private or loopback address" })
    .check();
  await webhooks.getByRole("button", { name: "Add the webhook" }).click();
  const secret = webhooks.getByRole("region", { name: `Secret for ${hook}` });
  await expect(
    secret.getByText("Copy it now: VICS will not show it again."),
  ).toBeVisible();
  await expect(secret.getByRole("textbox", { name: "Secret" })).toHaveValue(
    /^whsec_/,
  );
  const row = webhooks.getByRole("row").filter({ hasText: hook });
  await expect(row).toContainText("A private address is allowed");
  expect(await axeViolations(page)).toEqual([]);
  await secret.getByRole("button", { name: "Done" }).click();
  await expect(secret).toHaveCount(0);

  await row.getByRole("button", { name: `Remove ${hook}` }).click();
  await row.getByRole("button", { name: `Yes, remove ${hook}` }).click();
  await expect(webhooks.getByText(`${hook} is removed.`)).toBeVisible();
  await expect(row).toHaveCount(0);
});
