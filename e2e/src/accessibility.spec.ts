// WCAG 2.2 A/AA with axe on the insurance page and the compliance dashboard, in the states a
// person meets: empty form, a result, an error.
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures.ts";

const WCAG_TAGS = [
  "wcag2a",
  "wcag2aa",
  "wcag21a",
  "wcag21aa",
  "wcag22a",
  "wcag22aa",
];

const views = [
  { name: "insurance form", path: "/", ready: "Check a vehicle’s insurance" },
  { name: "insurance result", path: "/vehicle/AB12CDE", ready: "Insured" },
  {
    name: "insurance not found",
    path: "/vehicle/ZZ99ZZZ",
    ready: "No vehicle found",
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
    const results = await new AxeBuilder({ page })
      .withTags(WCAG_TAGS)
      .analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`),
    ).toEqual([]);
  });
}
