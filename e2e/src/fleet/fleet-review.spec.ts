// The review step of the fleet check in a real browser: a pasted list comes back after "Choose
// a different list", and keyboard users keep their place as they fix and exclude rows.
import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures.ts";
import { FleetPage } from "../pages/fleet-page.ts";

// Each journey reads a list, then reloads or opens a second tab: more than the default budget on
// a busy machine (no step is timed; this is only how long the test may take in all).
test.describe.configure({ timeout: 60_000 });

/** The rows of the list kept in the browser (IndexedDB) by now: it is kept a moment after a change. */
function keptRows(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("vics-fleet");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    // One draft per signed-in user ("user:<id>"); this browser has one user.
    const records = await new Promise<
      Array<{ id: string; draft: { rows: unknown[] } }>
    >((resolve, reject) => {
      const request = db.transaction("drafts").objectStore("drafts").getAll();
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.close();
    const own = records.filter((record) => record.id.startsWith("user:"));
    return own.length === 1 ? own[0]!.draft.rows.length : 0;
  });
}

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

  // A new tab has its own (empty) session storage, and finds the list kept in IndexedDB.
  await expect.poll(() => keptRows(page)).toBe(3);
  const other = new FleetPage(await context.newPage());
  await other.open();
  await expect(other.reviewHeading).toBeVisible();
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

test("a vehicle added with the keyboard is checked with the list and kept across a reload", async ({
  page,
}) => {
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste("AB12CDE\nZZ99ZZZ");
  await expect(fleet.reviewHeading).toBeVisible();

  await fleet.addField.focus();
  await page.keyboard.type("un51 nsd");
  await page.keyboard.press("Enter");
  await expect(fleet.addedRows).toHaveText([/^Row 3 \(added\): UN51 NSD/]);
  await expect(fleet.addField).toBeFocused();
  await expect(fleet.startButton).toHaveText("Check 3 vehicles");

  await expect.poll(() => keptRows(page)).toBe(3);
  await page.reload();
  await expect(fleet.addedRows).toHaveText([/^Row 3 \(added\): UN51 NSD/]);
  await expect(fleet.startButton).toHaveText("Check 3 vehicles");
});
