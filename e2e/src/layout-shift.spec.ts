// Layout shift (issue 34, point 11): each main page, loaded straight by its address as a
// signed-in admin who has made checks before, keeps its layout while its code and its data
// arrive. CLS here is every layout-shift entry without recent input, summed from the first
// paint until the page's data is in (at least Lighthouse's CLS, its largest session window).
// Target: under 0.1, Lighthouse's "good". `npm run pages` measures the same with Lighthouse.
import type { Page } from "@playwright/test";
import { CLIENT_HEADER, PROXY_PREFIX, paths } from "@vics/shared";
import { expect, test } from "./fixtures.ts";

/** Lighthouse's desktop preset's screen, where issue 34's figures were measured. */
const DESKTOP = { width: 1350, height: 940 };
const CLS_TARGET = 0.1;

/** Starts summing layout shifts before the page's first script runs. */
async function observeLayoutShift(page: Page) {
  await page.addInitScript(() => {
    const shifts: { value: number; at: number; sources: string[] }[] = [];
    Object.assign(window, { __layoutShifts: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node | null }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        shifts.push({
          value: entry.value,
          at: Math.round(entry.startTime),
          // What moved, to say where to look when this fails.
          sources: (entry.sources ?? []).map((source) => {
            const node = source.node;
            if (!(node instanceof Element)) return node?.nodeName ?? "?";
            const classes = [...node.classList].join(".");
            return `${node.tagName.toLowerCase()}${classes ? `.${classes}` : ""}`;
          }),
        });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/** The shifts so far, after the browser has painted what it has. */
async function layoutShifts(page: Page) {
  return page.evaluate(async () => {
    await new Promise((done) =>
      requestAnimationFrame(() => requestAnimationFrame(done)),
    );
    return (
      window as unknown as {
        __layoutShifts: { value: number; at: number; sources: string[] }[];
      }
    ).__layoutShifts;
  });
}

const pages: { path: string; loaded: (page: Page) => Promise<void> }[] = [
  {
    path: "/",
    loaded: (page) =>
      expect(
        page.getByRole("link", { name: /AB12 CDE/ }).first(),
      ).toBeVisible(),
  },
  {
    path: "/vehicle/AB12CDE",
    loaded: (page) =>
      expect(
        page.getByRole("heading", { level: 2, name: "Insured" }),
      ).toBeVisible(),
  },
  {
    path: "/compliance",
    loaded: (page) =>
      expect(
        page.getByRole("link", { name: /AB12 CDE/ }).first(),
      ).toBeVisible(),
  },
  {
    path: "/compliance/AB12CDE",
    loaded: (page) =>
      expect(
        page.getByRole("heading", { level: 2, name: "Compliant" }),
      ).toBeVisible(),
  },
  {
    path: "/fleet",
    loaded: (page) =>
      expect(
        page.getByRole("textbox", { name: "Paste registrations" }),
      ).toBeVisible(),
  },
  {
    path: "/fleets",
    loaded: (page) =>
      expect(
        page.getByRole("heading", { level: 1, name: "Your team’s fleets" }),
      ).toBeVisible(),
  },
  {
    path: "/notifications",
    loaded: (page) =>
      expect(
        page.getByRole("heading", { level: 1, name: "Notifications" }),
      ).toBeVisible(),
  },
  {
    path: "/admin/users",
    loaded: (page) =>
      expect(
        page.getByRole("heading", { level: 1, name: /Users/ }),
      ).toBeVisible(),
  },
  {
    path: "/admin/audit",
    loaded: (page) => expect(page.getByRole("table").first()).toBeVisible(),
  },
  {
    path: "/admin/data",
    loaded: (page) =>
      expect(
        page.getByRole("heading", { level: 1, name: "Data" }),
      ).toBeVisible(),
  },
  {
    path: "/admin/alerts",
    loaded: (page) =>
      expect(
        page.getByRole("heading", { level: 1, name: "Alerts" }),
      ).toBeVisible(),
  },
];

test.beforeEach(async ({ page }) => {
  // Checks made before, as by anyone who has used VICS: the check pages list them.
  for (const registration of ["AB12CDE", "UN51NSD"])
    for (const path of [
      paths.insurance(registration),
      paths.compliance(registration),
    ]) {
      const answer = await page.request.get(PROXY_PREFIX + path, {
        headers: { [CLIENT_HEADER]: "e2e" },
      });
      expect(answer.status()).toBeLessThan(500);
    }
});

/** Where issue 34 measured, and a phone's screen for the pages a phone is used for most. */
const screens = [
  { name: "desktop", size: DESKTOP, paths: pages.map((page) => page.path) },
  {
    name: "phone",
    size: { width: 360, height: 740 },
    paths: ["/", "/vehicle/AB12CDE", "/compliance", "/fleet"],
  },
];

for (const screen of screens)
  for (const { path, loaded } of pages.filter((page) =>
    screen.paths.includes(page.path),
  ))
    test(`${path} keeps its layout while it loads (${screen.name}): CLS < ${CLS_TARGET}`, async ({
      page,
    }) => {
      await page.setViewportSize(screen.size);
      await observeLayoutShift(page);
      await page.goto(path);
      await loaded(page);
      await page.waitForLoadState("networkidle");
      const shifts = await layoutShifts(page);
      const cls = shifts.reduce((sum, shift) => sum + shift.value, 0);
      test
        .info()
        .annotations.push({ type: "CLS", description: cls.toFixed(4) });
      expect(cls, JSON.stringify(shifts, null, 1)).toBeLessThan(CLS_TARGET);
    });
