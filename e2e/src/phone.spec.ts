// At a phone's width (360 px) the answer to a check is on screen and has focus, the header is
// compact, and the rate-limit meter holds its place from the first paint at every width.
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { CompliancePage } from "./pages/compliance-page.ts";
import { InsurancePage } from "./pages/insurance-page.ts";

const PHONE = { width: 360, height: 740 };

async function height(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error("not rendered");
  return box.height;
}

/** Whether the element's box lies wholly inside the viewport. */
async function onScreen(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) return false;
  return box.y >= 0 && box.y + box.height <= viewport.height;
}

const checks = [
  {
    name: "insurance",
    open: (page: Page) => new InsurancePage(page),
    start: "/",
    answer: "Insured",
  },
  {
    name: "compliance",
    open: (page: Page) => new CompliancePage(page),
    start: "/compliance",
    answer: "Compliant",
  },
];

for (const check of checks) {
  test(`phone: after an ${check.name} check its answer has focus and is on screen`, async ({
    page,
  }) => {
    await page.setViewportSize(PHONE);
    const view = check.open(page);
    await page.goto(check.start);
    // The header and navigation leave most of the first screen to the check.
    const chrome =
      (await height(view.header)) + (await height(view.primaryNav));
    expect(chrome).toBeLessThanOrEqual(PHONE.height / 4);
    await expect(
      view.primaryNav.getByRole("button", { name: "Menu" }),
    ).toBeVisible();

    await view.check("AB12CDE");
    const heading = page.getByRole("heading", { level: 2, name: check.answer });
    await expect(heading).toBeFocused();
    await expect.poll(() => onScreen(page, heading)).toBe(true);
  });
}

test("phone: the navigation folds behind Menu and opens on demand", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  const insurance = new InsurancePage(page);
  await insurance.open();
  const compliance = insurance.primaryNav.getByRole("link", {
    name: "Compliance check",
  });
  await expect(compliance).toBeHidden();
  const menu = insurance.primaryNav.getByRole("button", { name: "Menu" });
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await compliance.click();
  await expect(page).toHaveURL(/\/compliance$/);
  await expect(compliance).toBeHidden();
});

for (const size of [PHONE, { width: 1280, height: 900 }]) {
  test(`the header keeps its size when the first check arrives (${size.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    const insurance = new InsurancePage(page);
    await insurance.open();
    await expect(insurance.header).toContainText(
      "Your checks left this minute: not read yet",
    );
    const before = await height(insurance.header);
    await insurance.check("AB12CDE");
    await expect(insurance.status).toHaveText("Insured");
    await expect(insurance.header).toContainText(/checks left this minute/i);
    await expect(insurance.header).not.toContainText("not read yet");
    expect(await height(insurance.header)).toBe(before);
  });
}

for (const size of [PHONE, { width: 1280, height: 900 }]) {
  test(`the header keeps its size when the session arrives (${size.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    // Hold the session's answer until the header has been measured without it.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/auth/session", async (route) => {
      await held;
      await route.continue();
    });
    const insurance = new InsurancePage(page);
    await insurance.open();
    await expect(page.locator(".app-header--pending")).toBeVisible();
    const pending = await height(insurance.header);
    release();
    await expect(insurance.header).toContainText("Signed in as");
    await expect(page.locator(".app-header--pending")).toHaveCount(0);
    expect(await height(insurance.header)).toBe(pending);
  });
}
