// A fleet manager of their own with a saved fleet, for the saved-fleet journeys: each call
// makes a fresh user (the stack's fleets, alerts and notifications outlive one journey), checks
// the registrations, saves the check as a fleet with a name of its own and opens its page.
import type { BrowserContext, Page } from "@playwright/test";
import { createStaffUser, proxyStorePath } from "../auth/sign-in.ts";
import { expect, test } from "../fixtures.ts";
import { stackEnv } from "../stack-env.ts";
import { FleetPage } from "../pages/fleet-page.ts";

/** Signs a new fleet manager in, saves a checked fleet named `${prefix} …`, opens it; its name. */
export async function openNewSavedFleet(
  page: Page,
  context: BrowserContext,
  baseURL: string,
  registrations: string[],
  prefix: string,
): Promise<string> {
  const { dataDir } = await stackEnv();
  const manager = await createStaffUser(
    baseURL,
    proxyStorePath(dataDir),
    "fleet",
  );
  await context.addCookies([{ ...manager.session, url: baseURL }]);
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste(registrations.join("\n"));
  await fleet.startButton.click();
  await expect(fleet.finished).toHaveText(
    `Finished: ${registrations.length} vehicles checked.`,
  );

  // Fleets outlive one journey on the stack: a name of its own each time.
  const name = `${prefix} ${test.info().repeatEachIndex}-${Date.now()}`;
  await page.getByRole("textbox", { name: "Fleet name" }).fill(name);
  await page.getByRole("button", { name: "Save as a fleet" }).click();
  await page.getByRole("link", { name }).click();
  await expect(
    page.getByRole("heading", { name: `Fleet ${name}` }),
  ).toBeVisible();
  return name;
}
