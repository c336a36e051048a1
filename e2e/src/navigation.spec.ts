// The admin's navigation: the checks, the fleets, then an Admin menu, on one line on a wide
// screen (1,280 px), and folded behind "Menu" on a phone.
import type { Locator } from "@playwright/test";
import { axeViolations } from "./axe.ts";
import { expect, test } from "./fixtures.ts";

test.use({ signedInAs: "admin" });

/** The top of each of the navigation's top-level items: one value when they share a line. */
async function rowsOf(nav: Locator): Promise<number[]> {
  return nav
    .locator(".primary-nav__list > li")
    .evaluateAll((items) => [
      ...new Set(items.map((item) => item.getBoundingClientRect().top)),
    ]);
}

test("at 1,280 px the admin's navigation is one line: checks, fleets, Admin", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Primary" });
  await expect(
    nav.getByRole("link", { name: "Insurance check" }),
  ).toBeVisible();
  expect(await rowsOf(nav)).toHaveLength(1);
  // Every link and the Admin button on that one line, none wrapped inside its group.
  const tops = await nav
    .locator(".primary-nav__group-list a, .primary-nav__menu-button")
    .evaluateAll((items) => [
      ...new Set(items.map((item) => item.getBoundingClientRect().top)),
    ]);
  expect(tops).toHaveLength(1);
  await expect(
    nav.getByRole("list", { name: "Vehicle checks" }).getByRole("link"),
  ).toHaveText(["Insurance check", "Compliance check", "Fleet check"]);
  await expect(
    nav.getByRole("list", { name: "Saved fleets" }).getByRole("link"),
  ).toHaveText(["Fleets", /^Notifications/]);

  // The Admin menu, by keyboard: open, through its links, Escape back to its button.
  const admin = nav.getByRole("button", { name: "Admin" });
  await expect(nav.getByRole("link", { name: "Users" })).toBeHidden();
  await admin.focus();
  await page.keyboard.press("Enter");
  await expect(admin).toHaveAttribute("aria-expanded", "true");
  await expect(
    nav.getByRole("list", { name: "Admin" }).getByRole("link"),
  ).toHaveText(["Users", "Audit log", "Data", "Sources", "Alerts"]);
  expect(await axeViolations(page)).toEqual([]);
  await page.keyboard.press("Tab");
  await expect(nav.getByRole("link", { name: "Users" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(admin).toBeFocused();
  await expect(nav.getByRole("link", { name: "Users" })).toBeHidden();

  // By mouse: the menu drops over the page and its link goes there.
  await admin.click();
  await nav.getByRole("link", { name: "Audit log" }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  await expect(
    page.getByRole("heading", { level: 1, name: "Audit log" }),
  ).toBeVisible();
  await expect(admin).toHaveAttribute("aria-expanded", "false");
  expect(await rowsOf(nav)).toHaveLength(1);
});

test("on a phone the admin's navigation folds behind Menu, which opens it", async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Primary" });
  const menu = nav.getByRole("button", { name: "Menu" });
  await expect(menu).toBeVisible();
  await expect(nav.getByRole("link", { name: "Fleets" })).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(nav.getByRole("link", { name: "Fleets" })).toBeVisible();
  // The admin areas open in place under their button.
  await nav.getByRole("button", { name: "Admin" }).click();
  await nav.getByRole("link", { name: "Data" }).click();
  await expect(page).toHaveURL(/\/admin\/data$/);
  await expect(menu).toHaveAttribute("aria-expanded", "false");
});

test("the header's links stay readable under the pointer", async ({ page }) => {
  await page.goto("/");
  const banner = page.getByRole("banner");
  const account = banner.locator(".app-header__link");
  await account.hover();
  // The app's a:hover colour is dark blue: on the black header it read at 1.3:1.
  await expect(account).toHaveCSS("color", "rgb(255, 255, 255)");
  expect(await axeViolations(page)).toEqual([]);
  await banner.getByRole("button", { name: "Sign out" }).hover();
  await expect(banner.getByRole("button", { name: "Sign out" })).toHaveCSS(
    "color",
    "rgb(255, 255, 255)",
  );
});
