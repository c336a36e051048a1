// WCAG 2.2 A/AA with axe on the insurance page and the compliance dashboard, in the states a
// person meets: empty form, a result, an error.
import { axeViolations } from "./axe.ts";
import { expect, test } from "./fixtures.ts";

const views = [
  { name: "insurance form", path: "/", ready: "Check a vehicle’s insurance" },
  { name: "insurance result", path: "/vehicle/AB12CDE", ready: "Insured" },
  {
    name: "insurance not found",
    path: "/vehicle/ZZ99ZZZ",
    ready: "No vehicle found",
  },
  {
    name: "insurance form with an invalid registration (error summary)",
    path: "/vehicle/AB123CD",
    ready: "There is a problem",
  },
  { name: "compliance form", path: "/compliance", ready: /compliance/i },
  {
    name: "compliance dashboard",
    path: "/compliance/BD19ALL",
    ready: "Not compliant",
  },
  {
    name: "compliance dashboard, compliant",
    path: "/compliance/AB12CDE",
    ready: "Compliant",
  },
];

for (const view of views) {
  test(`axe finds no WCAG 2.2 A/AA violations: ${view.name}`, async ({
    page,
  }) => {
    await page.goto(view.path);
    await expect(
      page.getByRole("heading", { name: view.ready }).first(),
    ).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });
}

test("axe finds no WCAG 2.2 A/AA violations at phone width, with the menu open", async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/vehicle/AB12CDE");
  await expect(
    page.getByRole("heading", { level: 2, name: "Insured" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(
    page.getByRole("link", { name: "Compliance check" }),
  ).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});
