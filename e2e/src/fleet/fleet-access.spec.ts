// The fleet views for everyone: no axe WCAG 2.2 A/AA violations in each state, a whole check by
// keyboard alone, and a phone's width with nothing running off the side of the page.
import { axeViolations } from "../axe.ts";
import { expect, test } from "../fixtures.ts";
import { FleetPage } from "../pages/fleet-page.ts";

test("axe finds no WCAG 2.2 A/AA violations on the fleet views, in each state", async ({
  page,
}) => {
  // axe over several pages in one test: 12-16 s on a quiet machine, near the 30 s limit on a
  // busy one. Three times the time; a violation still fails it at once.
  test.slow();
  const fleet = new FleetPage(page);
  await fleet.open();
  await expect(fleet.pasteBox).toBeVisible();
  expect(await axeViolations(page), "the list's input").toEqual([]);

  await fleet.continueButton.click();
  await expect(fleet.errorSummary).toBeVisible();
  expect(await axeViolations(page), "an empty list's error").toEqual([]);

  await fleet.paste("AB12CDE\nAB1O CDE\nNOT!\nUN51NSD");
  await expect(fleet.reviewHeading).toBeVisible();
  expect(await axeViolations(page), "the review, with invalid rows").toEqual(
    [],
  );

  await fleet.complianceOption.check();
  await fleet.startButton.click();
  await expect(fleet.finished).toBeVisible();
  expect(await axeViolations(page), "a finished run's results").toEqual([]);

  await fleet.open();
  await expect(
    page.getByRole("heading", { name: "Previous fleet checks" }),
  ).toBeVisible();
  expect(await axeViolations(page), "the list of previous runs").toEqual([]);
});

test("a fleet check with the keyboard alone, from the paste to a filtered result", async ({
  page,
}) => {
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.pasteBox.waitFor();
  // Skip link, then on through the page until the text box has focus.
  for (let presses = 0; presses < 20; presses++) {
    await page.keyboard.press("Tab");
    if (await fleet.pasteBox.evaluate((box) => box === document.activeElement))
      break;
  }
  await expect(fleet.pasteBox).toBeFocused();
  await page.keyboard.type("AB12CDE, UN51NSD; ZZ99ZZZ");
  await page.keyboard.press("Tab");
  await expect(fleet.continueButton).toBeFocused();
  await page.keyboard.press("Enter");

  await expect(fleet.reviewHeading).toBeVisible();
  for (let presses = 0; presses < 20; presses++) {
    await page.keyboard.press("Tab");
    if (
      await fleet.startButton.evaluate(
        (button) => button === document.activeElement,
      )
    )
      break;
  }
  await expect(fleet.startButton).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(fleet.finished).toHaveText("Finished: 3 vehicles checked.");

  const show = page.getByRole("combobox", { name: "Show" });
  await show.focus();
  await page.keyboard.press("ArrowDown"); // "Rows that need action"
  await expect(show).toHaveValue("needs-action");
  await expect(
    page.getByText("Showing 2 of 3 rows.", { exact: true }).first(),
  ).toBeVisible();
  // The table scrolls with the keyboard: its region takes focus.
  await fleet.resultsTable.focus();
  await expect(fleet.resultsTable).toBeFocused();
});

test("at a phone's width the fleet views fit, and the results table scrolls in its own box", async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste("AB12CDE\nUN51NSD\nNOT!");
  await expect(fleet.reviewHeading).toBeVisible();
  const overflow = () =>
    page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
  expect(await overflow()).toBeLessThanOrEqual(0);
  await fleet.startButton.click();
  await expect(fleet.finished).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.screenshot({
    path: test.info().outputPath("fleet-phone.png"),
    fullPage: true,
  });
});
