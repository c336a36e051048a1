// Staff sign-in journeys over the whole stack: a person signs in with their password, checks a
// vehicle, and an admin finds that check in the audit log; a role that cannot use a page is
// told so in words; a disabled user is thrown out on their next request; every new page passes
// axe.
import { axeViolations } from "../axe.ts";
import { expect, test } from "../fixtures.ts";
import { AuditPage } from "../pages/audit-page.ts";
import { InsurancePage } from "../pages/insurance-page.ts";
import { stackEnv } from "../stack-env.ts";
import { createStaffUser, proxyStorePath, usersCli } from "./sign-in.ts";

async function newUser(role: "staff" | "fleet" | "admin") {
  const { baseUrl, dataDir } = await stackEnv();
  return createStaffUser(baseUrl, proxyStorePath(dataDir), role);
}

test.describe("signed out", () => {
  test.use({ signedInAs: null });

  test("sign in with a password, check a vehicle, and an admin finds the check in the audit log", async ({
    page,
    browser,
    sessionFor,
    baseURL,
  }) => {
    const person = await newUser("staff");
    // A deep link while signed out: the sign-in page, then back to where they were going.
    await page.goto("/vehicle/AB12CDE");
    await expect(page).toHaveURL(/\/sign-in\?returnTo=%2Fvehicle%2FAB12CDE/);
    await expect(
      page.getByRole("heading", { name: "Sign in to VICS" }),
    ).toBeVisible();
    await page.getByLabel("Email address").fill(person.email);
    await page.getByLabel("Password").fill(`${person.password} wrong`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(
      page.getByText("The email or password is not right.").first(),
    ).toBeVisible();
    await page.getByLabel("Password").fill(person.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/vehicle\/AB12CDE$/);
    const insurance = new InsurancePage(page);
    await expect(insurance.status).toHaveText("Insured");

    // The admin, at another desk, searches the audit by that registration.
    const admin = await browser.newContext();
    await admin.addCookies([{ ...(await sessionFor("admin")), url: baseURL! }]);
    const adminPage = await admin.newPage();
    const audit = new AuditPage(adminPage);
    await audit.open();
    await audit.search({ user: person.email, registration: "AB12CDE" });
    await expect(audit.events("Insurance check", person.email)).toHaveCount(1);
    await expect(
      audit.rows.filter({ hasText: /AB12 ?CDE/ }).first(),
    ).toBeVisible();
    // Their refused sign-in is there too, found by the person alone.
    await audit.search({ user: person.email, registration: "" });
    await expect(audit.events("Sign-in refused", person.email)).toHaveCount(1);
    await admin.close();
  });

  test("axe finds no WCAG 2.2 A/AA violations on the sign-in page", async ({
    page,
  }) => {
    await page.goto("/sign-in");
    await expect(
      page.getByRole("heading", { name: "Sign in to VICS" }),
    ).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });
});

test.describe("one-time links, signed out", () => {
  test.use({ signedInAs: null });

  test("axe finds no WCAG 2.2 A/AA violations on the set-password and sign-in link pages", async ({
    page,
  }) => {
    const { dataDir } = await stackEnv();
    const output = await usersCli(
      proxyStorePath(dataDir),
      "create",
      "--email",
      `e2e-invited-${Date.now()}@example.org`,
      "--role",
      "staff",
    );
    // The link's own address names the proxy's default port: open its path on this stack.
    const invite = new URL(/(http\S+#token=\S+)/.exec(output)![1]!);
    const pages = [
      [`${invite.pathname}${invite.hash}`, "Create your password"],
      [
        `/sign-in/link#token=${"A".repeat(43)}`,
        "This sign-in link cannot be used",
      ],
    ] as const;
    for (const [path, heading] of pages) {
      await page.goto(path);
      await expect(
        page.getByRole("heading", { level: 1, name: heading }),
      ).toBeVisible();
      expect(await axeViolations(page), path).toEqual([]);
    }
  });
});

test.describe("roles", () => {
  test.use({ signedInAs: "staff" });

  test("staff arriving at the fleet page by a link are told in words which role it needs", async ({
    page,
  }) => {
    await page.goto("/fleet");
    await expect(
      page.getByRole("heading", { name: "Your role does not allow this page" }),
    ).toBeVisible();
    await expect(page.getByRole("main")).toContainText(/fleet/);
    await expect(
      page.getByRole("navigation").getByRole("link", { name: /fleet/i }),
    ).toHaveCount(0);
  });
});

test("a disabled user is thrown out on their next request", async ({
  browser,
  baseURL,
}) => {
  const { dataDir } = await stackEnv();
  const person = await newUser("staff");
  const context = await browser.newContext();
  await context.addCookies([{ ...person.session, url: baseURL! }]);
  const page = await context.newPage();
  const insurance = new InsurancePage(page);
  await insurance.open();
  await insurance.check("AB12CDE");
  await expect(insurance.status).toHaveText("Insured");

  await usersCli(proxyStorePath(dataDir), "disable", person.email);
  // The next check, in the page already open: refused, and the browser is at the sign-in page.
  await page.getByRole("link", { name: "Insurance check" }).click();
  await insurance.check("UN51NSD");
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(
    page.getByRole("heading", { name: "Sign in to VICS" }),
  ).toBeVisible();
  await context.close();
});

test("axe finds no WCAG 2.2 A/AA violations on the account, users, audit and sign-out pages", async ({
  page,
}) => {
  // axe over several pages in one test: 12-16 s on a quiet machine, near the 30 s limit on a
  // busy one. Three times the time; a violation still fails it at once.
  test.slow();
  for (const [path, heading] of [
    ["/account", "Your account"],
    ["/admin/users", /Users/],
    ["/admin/audit", "Audit log"],
    ["/sign-out", "Sign out"],
  ] as const) {
    await page.goto(path);
    await expect(
      page.getByRole("heading", { level: 1, name: heading }),
    ).toBeVisible();
    expect(await axeViolations(page), path).toEqual([]);
  }
});
