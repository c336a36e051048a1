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

test("fixing rows with the keyboard: focus moves to the next row, then to the end", async ({
  page,
}) => {
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste("AB1O CDE\nAB12CDE\nNOT!\nXX!\nZZ!");
  await expect(fleet.reviewHeading).toBeFocused();

  // Tab from the heading to the first suggestion, and take it with Enter.
  for (let presses = 0; presses < 20; presses++) {
    if (
      await fleet
        .suggestion("AB10 CDE", 1)
        .evaluate((el) => el === document.activeElement)
    )
      break;
    await page.keyboard.press("Tab");
  }
  await expect(fleet.suggestion("AB10 CDE", 1)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(fleet.rowField(3)).toBeFocused();
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: "Row 1 changed to AB10 CDE. 3 rows left to fix." }),
  ).toBeAttached();

  // A typed fix, sent with Enter: on to the next row.
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("un51nsd");
  await page.keyboard.press("Enter");
  await expect(fleet.rowField(4)).toBeFocused();

  // Exclude the rest from the keyboard: focus to the section's heading, which counts them.
  await fleet.excludeAllButton.focus();
  await page.keyboard.press("Enter");
  await expect(fleet.invalidRowsHeading).toBeFocused();
  await expect(fleet.invalidRowsHeading).toHaveText(
    "Rows with an invalid registration: 2 excluded",
  );
});
