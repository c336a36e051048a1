// Recent checks are kept in this browser only, survive a reload, and can be cleared.
import { expect, test } from "./fixtures.ts";

test("recent checks stay in this browser across a reload and can be cleared", async ({
  page,
}) => {
  await page.goto("/vehicle/AB12CDE");
  await expect(
    page.getByRole("heading", { level: 2, name: "Insured" }),
  ).toBeVisible();
  await page.goto("/compliance/FN19OUT");
  await expect(
    page.getByRole("heading", { level: 2, name: "Not compliant" }),
  ).toBeVisible();
  await page.reload();

  const recent = page.locator("section.recent-checks");
  await expect(
    recent.getByRole("link", { name: /Insurance: Insured/ }),
  ).toBeVisible();
  await expect(
    recent.getByRole("link", { name: /Compliance: Not compliant/ }),
  ).toBeVisible();
  await recent.getByRole("button", { name: "Clear recent checks" }).click();
  await expect(recent.getByRole("link")).toHaveCount(0);
  // A new page load (without a check of its own) still finds nothing: the list was cleared
  // from storage, not only from the screen.
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(
    page.locator("section.recent-checks").getByRole("link"),
  ).toHaveCount(0);
});
