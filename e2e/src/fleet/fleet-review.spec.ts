// The review step of the fleet check in a real browser: a pasted list comes back after "Choose
// a different list", and keyboard users keep their place as they fix and exclude rows.
import { expect, test } from "../fixtures.ts";
import { FleetPage } from "../pages/fleet-page.ts";

test("'Choose a different list' gives back the pasted text", async ({
  page,
}) => {
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste("AB12CDE\nZZ99ZZZ");
  await expect(fleet.reviewHeading).toBeVisible();
  await fleet.chooseDifferentList.click();
  await expect(fleet.pasteBox).toHaveValue("AB12CDE\nZZ99ZZZ");
});

test("a pasted list kept from another tab comes back in the box", async ({
  page,
  context,
}) => {
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste("AB12CDE, ZZ99ZZZ\nUN51NSD");
  await expect(fleet.reviewHeading).toBeVisible();

  // A new tab has its own (empty) session storage; the list is kept in IndexedDB a moment
  // after the change, so the new tab is opened again until it finds it.
  const other = new FleetPage(await context.newPage());
  await expect(async () => {
    await other.open();
    await expect(other.reviewHeading).toBeVisible({ timeout: 1000 });
  }).toPass();
  await other.chooseDifferentList.click();
  await expect(other.pasteBox).toHaveValue("AB12CDE\nZZ99ZZZ\nUN51NSD");
});
