// One tab checking its own run never says the run is going on in another tab: not as it
// finishes, not after "Stop checking", not after a retry; a second tab of the same browser does.
import type { Page, Route } from "@playwright/test";
import { expect, test } from "../fixtures.ts";
import { FleetPage } from "../pages/fleet-page.ts";

const BULK = "**/api/v1/vehicle/bulk-insurance";
const ELSEWHERE = "running in another tab or window";

interface Watch {
  sawElsewhere?: boolean;
  /** The page's looks at which runs are locked, answered so far. */
  looks?: number;
}

/**
 * Records, in the page, whether its text ever said the run is going on elsewhere, and counts
 * the page's looks at the browser's locks (so a test can wait for the next one).
 */
async function watchForElsewhere(page: Page) {
  await page.addInitScript((words) => {
    const flags = window as unknown as Watch;
    flags.sawElsewhere = false;
    flags.looks = 0;
    const query = navigator.locks.query.bind(navigator.locks);
    navigator.locks.query = async () => {
      const answer = await query();
      flags.looks = (flags.looks ?? 0) + 1;
      return answer;
    };
    new MutationObserver(() => {
      if (document.body?.textContent?.includes(words))
        flags.sawElsewhere = true;
    }).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  }, ELSEWHERE);
}

function sawElsewhere(page: Page): Promise<boolean | undefined> {
  return page.evaluate(() => (window as unknown as Watch).sawElsewhere);
}

/** Until the page has looked at the locks twice more (it does every 2 s). */
async function twoMoreLooks(page: Page) {
  const looks = () => page.evaluate(() => (window as unknown as Watch).looks);
  const before = (await looks()) ?? 0;
  await expect.poll(looks, { timeout: 10_000 }).toBeGreaterThan(before + 1);
}

/** Holds every bulk request until `release` is called, so a run is still going. */
async function holdBulk(page: Page) {
  const held: Route[] = [];
  await page.route(BULK, (route) => {
    held.push(route);
  });
  return async () => {
    await page.unroute(BULK);
    for (const route of held) await route.continue().catch(() => undefined);
  };
}

test("one tab's own run is never 'in another tab' through finish, stop and retry; a second tab is told", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await watchForElsewhere(page);
  const fleet = new FleetPage(page);
  await fleet.open();
  // ER19ERR fails its own item every time: the run ends with one vehicle not checked.
  let release = await holdBulk(page);
  await fleet.paste("AB12CDE\nUN51NSD\nLP08SED\nMT15EXP\nER19ERR");
  await fleet.startButton.click();
  await expect(fleet.progress).toBeVisible();

  await fleet.stopButton.click();
  // The held requests get a few seconds to answer after the stop, then are given up.
  await expect(
    page.getByRole("heading", {
      name: "You stopped this check before it finished",
    }),
  ).toBeVisible({ timeout: 15_000 });
  await expect(fleet.resumeButton).toBeVisible();
  await twoMoreLooks(page);
  expect(await sawElsewhere(page)).toBe(false);
  await release();

  await fleet.resumeButton.click();
  await expect(fleet.finished).toHaveText(
    "Finished: 5 vehicles checked. 1 vehicle could not be checked.",
    { timeout: 30_000 },
  );
  await fleet.retryButton.click();
  await expect(fleet.finished).toHaveText(
    "Finished: 5 vehicles checked. 1 vehicle could not be checked.",
    { timeout: 30_000 },
  );
  await twoMoreLooks(page);
  expect(await sawElsewhere(page)).toBe(false);

  // While this tab checks the run again, a second tab of the same browser is told so.
  release = await holdBulk(page);
  await fleet.retryButton.click();
  await expect(fleet.progress).toBeVisible();
  const other = await page.context().newPage();
  const otherFleet = new FleetPage(other);
  await other.goto(page.url());
  await expect(otherFleet.elsewhereHeading).toBeVisible();
  await expect(otherFleet.resumeButton).toHaveCount(0);
  await release();
  await expect(fleet.finished).toBeVisible({ timeout: 30_000 });
  await twoMoreLooks(page);
  expect(await sawElsewhere(page)).toBe(false);
});
