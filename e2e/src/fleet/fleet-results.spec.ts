// The results a fleet manager acts on, in a real browser: at a phone's width each vehicle is a
// card, outcome first, and nothing runs off the side of the screen.
import type { Locator } from "@playwright/test";
import { expect, test } from "../fixtures.ts";
import { FleetPage } from "../pages/fleet-page.ts";

const PHONE = { width: 360, height: 740 };

/** How far the element's content runs past its own width, in pixels (0 when it fits). */
function overflow(locator: Locator): Promise<number> {
  return locator.evaluate(
    (element) => element.scrollWidth - element.clientWidth,
  );
}

test("phone: one card per vehicle, outcome first, nothing wider than the screen", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste("AB12CDE\nUN51NSD\nZZ99ZZZ");
  await fleet.startButton.click();
  await expect(fleet.finished).toHaveText("Finished: 3 vehicles checked.");

  const card = fleet.resultCard("UN51 NSD");
  await expect(card).toBeVisible();
  // The outcome comes first in the card, and is on screen whole.
  await expect(card.locator(":scope > *").first()).toHaveText(/^Not insured/);
  const outcome = card.getByText("Not insured", { exact: true });
  // Scrolled to, as a user does, it shows whole: nothing cuts it off at the side.
  await outcome.scrollIntoViewIfNeeded();
  await expect(outcome).toBeInViewport({ ratio: 1 });
  const box = await outcome.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);

  expect(await overflow(fleet.resultsTable)).toBeLessThanOrEqual(0);
  expect(await overflow(page.locator("html"))).toBeLessThanOrEqual(0);
});
