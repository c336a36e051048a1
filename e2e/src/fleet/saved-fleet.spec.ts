// A watched fleet over the real stack: a fleet manager saves a finished fleet check as a fleet,
// opens it, has it checked now (the proxy's re-check goes to the real service with a key of its
// own), sees each vehicle's answer and alert in words, a vehicle's timeline and the
// notification, then updates the fleet from a file with the difference shown first. axe on
// every new page.
import { axeViolations } from "../axe.ts";
import { expect, test } from "../fixtures.ts";
import { openNewSavedFleet } from "./fleet-user.ts";

// A fleet user of its own each time: the stack's watched vehicles and their alerts outlive one
// journey (and its repeats), and notifications are read per person.
test.use({ signedInAs: null });

test("save a fleet check as a fleet, check it now, and see each vehicle's answer and alert", async ({
  page,
  context,
  baseURL,
}) => {
  // A long journey over many pages, each checked with axe.
  test.slow();
  const name = await openNewSavedFleet(
    page,
    context,
    baseURL!,
    ["AB12CDE", "LP08SED", "MT15EXP"],
    "Depot",
  );
  const table = page.getByRole("table");
  await expect(table.getByRole("row")).toHaveCount(4);
  expect(await axeViolations(page)).toEqual([]);

  // The fleet's first check started as it was saved: asked again, it may still be under way.
  await page.getByRole("button", { name: "Check this fleet now" }).click();
  // (A check of three vehicles may be over before the page next asks.)
  await expect(
    page.getByText(
      /^(Checking 3 vehicles now|This fleet is being checked already|The check of 3 vehicles has finished)\./,
    ),
  ).toBeVisible();
  // The re-check runs in the proxy; the page fetches the answers as they are recorded.
  await expect(page.getByRole("row", { name: /LP08 SED/ })).toContainText(
    /Not insured: policy .* lapsed on/,
    { timeout: 30_000 },
  );
  await expect(page.getByRole("row", { name: /MT15 EXP/ })).toContainText(
    /MOT expired on/,
  );
  await expect(page.getByRole("row", { name: /AB12 CDE/ })).toContainText(
    /Insured until/,
  );
  // Every answer is in: the page no longer says it is checking.
  await expect(
    page.getByText(
      /^The check of 3 vehicles has finished\. Their answers are below\.$/,
    ),
  ).toBeVisible({ timeout: 30_000 });
  // Needing action first.
  await expect(table.getByRole("row").nth(1)).toContainText("LP08 SED");

  // The vehicle's timeline: what the re-check saw, and its alert.
  await page.getByRole("link", { name: "LP08 SED" }).click();
  await expect(
    page.getByRole("heading", { name: "Watched vehicle LP08 SED" }),
  ).toBeVisible();
  await expect(
    page.getByRole("row", { name: / Insurance First seen / }),
  ).toContainText(/First seen\s*Not insured: policy .* ended/);
  await expect(
    page.getByText(/^Not insured: policy .* lapsed on/),
  ).toContainText(", open");
  expect(await axeViolations(page)).toEqual([]);

  // The in-app channel: what the re-checks found (a fleet's first check summed up, a later
  // sweep's alerts), counted in the navigation until read.
  const primary = page.getByRole("navigation", { name: "Primary" });
  await primary.getByRole("link", { name: /^Notifications/ }).click();
  await expect(
    page.getByRole("heading", { name: "Notifications" }),
  ).toBeVisible();
  await expect(
    page.getByRole("listitem").filter({ hasText: /^New / }).first(),
  ).toBeVisible();
  await expect(
    primary.getByRole("link", { name: /^Notifications \d+ unread$/ }),
  ).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Mark all as read" }).click();
  await expect(page.getByText(/All read\./)).toBeVisible();
  await expect(
    primary.getByRole("link", { name: "Notifications", exact: true }),
  ).toBeVisible();

  await page.getByRole("link", { name: "Fleets" }).first().click();
  await expect(
    page.getByRole("heading", { name: "Your team’s fleets" }),
  ).toBeVisible();
  await expect(page.getByRole("link", { name })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // A new file for the fleet: the difference first, then applied.
  await page.getByRole("link", { name }).click();
  await page.getByLabel(/A new list of this fleet/).setInputFiles({
    name: "depot-update.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(
      "Registration,Driver\nAB12CDE,Ann\nMT15EXP,Max\nUN51NSD,Una\n",
    ),
  });
  const change = page.getByRole("region", {
    name: "What the file would change",
  });
  await expect(change).toContainText("1 added: UN51 NSD");
  await expect(change).toContainText("1 removed: LP08 SED");
  await expect(change).toContainText("2 with new details: AB12 CDE, MT15 EXP");
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Apply these changes" }).click();
  await expect(
    page.getByText("Updated: 1 added, 1 removed, 2 changed."),
  ).toBeVisible();
  const vehicles = page.getByRole("table");
  await expect(vehicles.getByRole("row", { name: /UN51 NSD/ })).toBeVisible();
  await expect(vehicles.getByRole("row", { name: /LP08 SED/ })).toHaveCount(0);
  await expect(vehicles.getByRole("row", { name: /AB12 CDE/ })).toContainText(
    "Ann",
  );
});
