// A new fleet's first check over the real stack (issue 34, points 2, 3 and 7): saving a finished
// fleet check says which invalid rows were left out; the proxy checks the new fleet itself at
// once, so its page says "Checking now" and then each answer, never "Not checked yet"; and
// Notifications sums the first check up in one row for the fleet, not a row per vehicle.
import { DatabaseSync } from "node:sqlite";
import { formatRegistration } from "@vics/shared";
import { createStaffUser, proxyStorePath } from "../auth/sign-in.ts";
import { axeViolations } from "../axe.ts";
import { expect, test } from "../fixtures.ts";
import { FleetPage } from "../pages/fleet-page.ts";
import { stackEnv } from "../stack-env.ts";
import { seededRegistrations } from "./fleet-data.ts";

// A fleet user of their own: notifications are read per person.
test.use({ signedInAs: null });

/**
 * Three of the seeded fleet's registrations no fleet has watched yet (read from the proxy's
 * store, as an operator could), a different three for each repeat: their first check is this
 * fleet's, whatever ran on the stack before.
 */
async function unwatched(dataDir: string): Promise<string[]> {
  const db = new DatabaseSync(proxyStorePath(dataDir), { readOnly: true });
  let watched: Set<string>;
  try {
    watched = new Set(
      db
        .prepare(
          `SELECT registration FROM watched_vehicles
           UNION SELECT registration FROM fleet_vehicles`,
        )
        .all()
        .map((row) => String(row.registration)),
    );
  } finally {
    db.close();
  }
  const fresh = (await seededRegistrations(500)).filter(
    (registration) => !watched.has(registration),
  );
  const start = 3 * test.info().repeatEachIndex;
  return fresh.slice(start, start + 3);
}

test("a saved fleet is checked at once, its first check summed up in one notification", async ({
  page,
  context,
  baseURL,
}) => {
  test.slow();
  const { dataDir } = await stackEnv();
  const registrations = await unwatched(dataDir);
  expect(registrations).toHaveLength(3);
  const manager = await createStaffUser(
    baseURL!,
    proxyStorePath(dataDir),
    "fleet",
  );
  await context.addCookies([{ ...manager.session, url: baseURL! }]);

  const fleet = new FleetPage(page);
  await fleet.open();
  // Row 3 is no registration: checked as invalid, and left out of the fleet.
  await fleet.paste(
    [registrations[0], registrations[1], "AB12 CD!", registrations[2]].join(
      "\n",
    ),
  );
  await fleet.startButton.click();
  await expect(fleet.finished).toHaveText("Finished: 3 vehicles checked.");

  const name = `First check ${test.info().repeatEachIndex}-${Date.now()}`;
  await page.getByRole("textbox", { name: "Fleet name" }).fill(name);
  await page.getByRole("button", { name: "Save as a fleet" }).click();
  await expect(
    page.getByText(
      `Saved 3 vehicles as the fleet ${name}; 1 invalid row was left out (row 3).`,
    ),
  ).toBeVisible();
  await page.getByRole("link", { name }).click();
  await expect(
    page.getByRole("heading", { name: `Fleet ${name}` }),
  ).toBeVisible();

  // Never blank: each vehicle is "Checking now" until its answer, which comes without a click.
  const table = page.getByRole("table");
  await expect(table.getByRole("row")).toHaveCount(4);
  await expect(table).not.toContainText("Not checked yet");
  for (const registration of registrations)
    await expect(
      table
        .getByRole("row")
        .filter({ hasText: formatRegistration(registration) }),
    ).toContainText(
      /Insured until|Not insured|Not found|Not yet on record|Unknown since/,
      {
        timeout: 30_000,
      },
    );
  await expect(table).not.toContainText("Checking now");
  await expect(table).not.toContainText("Not checked yet");

  // One row for the fleet's first check, none for its vehicles one by one.
  const primary = page.getByRole("navigation", { name: "Primary" });
  await primary.getByRole("link", { name: /^Notifications/ }).click();
  await expect(
    page.getByRole("heading", { name: "Notifications" }),
  ).toBeVisible();
  await page.getByLabel("Fleet", { exact: true }).selectOption({ label: name });
  const rows = page.locator(".notifications > li");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(
    new RegExp(
      `^New ${name}: first check of 3 vehicles, (none needs|1 needs|\\d+ need) attention\\.`,
    ),
  );
  expect(await axeViolations(page)).toEqual([]);
  await rows.first().getByRole("button", { name: "Mark read" }).click();
  await expect(rows.first()).not.toContainText("New");
  await expect(rows.first().getByRole("button")).toHaveCount(0);
});
