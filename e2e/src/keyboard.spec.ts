// A keyboard-only user can reach the input, submit, and move to the other view: no mouse.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

/** Presses Tab until the focused element matches, at most `limit` times. */
async function tabTo(
  page: Page,
  matches: (el: Element) => boolean,
  limit = 40,
): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(`(${matches.toString()})(document.activeElement)`))
      return;
  }
  throw new Error("Tab never reached the element");
}

test("check insurance, then compliance, then back, with the keyboard only", async ({
  page,
}) => {
  await page.goto("/");
  await tabTo(
    page,
    (el) => el instanceof HTMLInputElement && el.name === "registration",
  );
  await page.keyboard.type("ab12 cde");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/vehicle\/AB12CDE$/);
  await expect(
    page.getByRole("heading", { level: 2, name: "Insured" }),
  ).toBeVisible();

  await tabTo(
    page,
    (el) => el.textContent?.trim() === "Check compliance for AB12 CDE",
  );
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/compliance\/AB12CDE$/);
  await expect(
    page.getByRole("heading", { level: 2, name: "Compliant" }),
  ).toBeVisible();

  await tabTo(
    page,
    (el) => el.textContent?.trim() === "View insurance details for AB12 CDE",
  );
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/vehicle\/AB12CDE$/);
});

test("the skip link moves focus past the navigation", async ({ page }) => {
  await page.goto("/compliance");
  // The page's content is drawn once the session has answered: skipping to main before then
  // lands in an empty main, and the Tabs after it wrap round to the header.
  await expect(page.locator('input[name="registration"]')).toBeVisible();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: /skip to main content/i });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await tabTo(
    page,
    (el) => el instanceof HTMLInputElement && el.name === "registration",
    3,
  );
});
