// Compliance journeys: every reference registration's verdict and each badge's words, in the
// browser.
import { expect, test } from "./fixtures.ts";
import { CompliancePage, type CheckName } from "./pages/compliance-page.ts";

type Expected = Record<CheckName, [result: "Pass" | "Fail", reason: RegExp]>;

const passing: Expected = {
  Insurance: ["Pass", /^Insured until \d{1,2} \w+ \d{4}$/],
  MOT: ["Pass", /^MOT valid until \d{1,2} \w+ \d{4}$/],
  "Road tax": ["Pass", /^Taxed until \d{1,2} \w+ \d{4}$/],
  Fines: ["Pass", /^No unpaid fines$/],
};

const journeys: Array<{
  registration: string;
  compliant: boolean;
  checks: Expected;
  vehicle: RegExp;
}> = [
  {
    registration: "AB12CDE",
    compliant: true,
    checks: passing,
    // The year too, as the insurance view shows it.
    vehicle: /Ford.*Focus.*2012.*Blue/s,
  },
  {
    registration: "MT15EXP",
    compliant: false,
    checks: { ...passing, MOT: ["Fail", /^MOT expired on \d{1,2} \w+ \d{4}$/] },
    vehicle: /Nissan.*Qashqai.*Grey/s,
  },
  {
    registration: "NW25CAR",
    compliant: true,
    checks: {
      ...passing,
      MOT: ["Pass", /^MOT not yet due: under 3 years old$/],
    },
    vehicle: /Kia.*Niro.*White/s,
  },
  {
    registration: "TX19NON",
    compliant: false,
    checks: {
      ...passing,
      "Road tax": ["Fail", /^Untaxed since \d{1,2} \w+ \d{4}$/],
    },
    vehicle: /Peugeot.*208.*Yellow/s,
  },
  {
    registration: "SR19ORN",
    compliant: false,
    checks: {
      ...passing,
      "Road tax": ["Fail", /^SORN: not taxed for road use$/],
    },
    vehicle: /Renault.*Clio.*Black/s,
  },
  {
    registration: "FN19OUT",
    compliant: false,
    checks: { ...passing, Fines: ["Fail", /^2 unpaid fines, £150 total$/] },
    vehicle: /Skoda.*Octavia.*Green/s,
  },
  {
    registration: "BD19ALL",
    compliant: false,
    checks: {
      Insurance: ["Fail", /^Insurance lapsed on \d{1,2} \w+ \d{4}$/],
      MOT: ["Fail", /^MOT expired on \d{1,2} \w+ \d{4}$/],
      "Road tax": ["Fail", /^Untaxed since \d{1,2} \w+ \d{4}$/],
      Fines: ["Fail", /^1 unpaid fine, £100 total$/],
    },
    vehicle: /BMW.*3 Series.*Purple/s,
  },
];

for (const { registration, compliant, checks, vehicle } of journeys) {
  test(`${registration}: ${compliant ? "compliant" : "not compliant"}, with each check in words`, async ({
    page,
  }) => {
    const compliance = new CompliancePage(page);
    await compliance.open();
    await compliance.check(registration.toLowerCase());

    await expect(page).toHaveURL(new RegExp(`/compliance/${registration}$`));
    await expect(compliance.verdict).toHaveText(
      compliant ? "Compliant" : "Not compliant",
    );
    await expect(compliance.verdictBanner).toContainText(vehicle);
    await expect(compliance.checks.getByRole("listitem")).toHaveCount(4);
    for (const [name, [result, reason]] of Object.entries(checks)) {
      const badge = compliance.badge(name as CheckName);
      await expect(
        badge.locator(".check-badge__result"),
        `${name} result`,
      ).toHaveText(result);
      await expect(
        badge.locator(".check-badge__reason"),
        `${name} reason`,
      ).toHaveText(reason);
    }
    await expect(compliance.checkedAt).toBeVisible();
  });
}

test("Check again makes a new check, and the views link to each other", async ({
  page,
}) => {
  const checks: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/v1/compliance/AB12CDE"))
      checks.push(request.url());
  });
  const compliance = new CompliancePage(page);
  await compliance.open("AB12CDE");
  await expect(compliance.verdict).toHaveText("Compliant");
  const before = checks.length;
  await compliance.checkAgainButton.click();
  await expect.poll(() => checks.length).toBeGreaterThan(before);
  await expect(compliance.checkAgainButton).toHaveText("Check again");

  await compliance.insuranceLink.click();
  await expect(page).toHaveURL(/\/vehicle\/AB12CDE$/);
  await page
    .getByRole("link", { name: "Check compliance for AB12 CDE" })
    .click();
  await expect(page).toHaveURL(/\/compliance\/AB12CDE$/);
  await expect(compliance.verdict).toHaveText("Compliant");
});

test("compliance errors read as the insurance check's do", async ({ page }) => {
  const compliance = new CompliancePage(page);
  await compliance.open("ZZ99ZZZ");
  await expect(
    page.getByRole("heading", { name: "No vehicle found" }),
  ).toBeVisible();
  await compliance.open("ER19ERR");
  await expect(
    page.getByRole("heading", {
      name: "The vehicle service had a problem",
    }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
});

test("a compliance check costs one request against the key's rate limit", async ({
  page,
}) => {
  const apiCalls: string[] = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    // The checks only: the session and recent checks are the app's own.
    if (path.startsWith("/api/v1/")) apiCalls.push(path);
  });
  const compliance = new CompliancePage(page);
  await compliance.open("MT15EXP");
  await expect(compliance.verdict).toHaveText("Not compliant");
  await expect.poll(() => apiCalls.length).toBeGreaterThan(0);
  await expect(compliance.verdictBanner).toContainText("Qashqai");
  await expect(
    compliance.badge("Insurance").locator(".check-badge__reason"),
  ).toHaveText(/^Insured until/);
  expect(apiCalls).toEqual(["/api/v1/compliance/MT15EXP"]);
});
