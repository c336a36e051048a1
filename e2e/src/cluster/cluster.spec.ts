// The signed-in journeys once through the cluster's https URL: nginx with TLS in front of two
// proxies and three services on PostgreSQL and Redis. A person invited from a shell sets their
// password and gets a __Host- session cookie that is Secure; their checks, wherever nginx sends
// them, are in the one audit log an admin at another desk searches; a fleet runs.
import type { Page } from "@playwright/test";
import { expect, test } from "./cluster-fixtures.ts";
import { AuditPage } from "../pages/audit-page.ts";
import { FleetPage } from "../pages/fleet-page.ts";
import { InsurancePage } from "../pages/insurance-page.ts";

const PASSWORD = "cluster journey passphrase 2026";

/** Opens an invitation link and sets the password through its page, which signs them in. */
async function setPassword(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await expect(
    page.getByRole("heading", { level: 1, name: "Create your password" }),
  ).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm new password").fill(PASSWORD);
  await page.getByRole("button", { name: "Save password and sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

test("invited staff set a password at the https URL, get a __Host- Secure cookie, and an admin finds their checks in the audit log", async ({
  page,
  browser,
  invite,
  cluster,
}) => {
  const staff = await invite("staff");
  // The link the command printed names the cluster's own https URL.
  expect(staff.link.startsWith(`${cluster.url}/`)).toBe(true);
  await setPassword(page, staff.link);
  await expect(page).toHaveURL(`${cluster.url}/`);

  // The session, and the device cookie of decision 048, both __Host- and Secure.
  const cookies = await page.context().cookies();
  expect(cookies.map((cookie) => cookie.name).sort()).toEqual([
    "__Host-vics_device",
    "__Host-vics_session",
  ]);
  for (const cookie of cookies)
    expect(cookie).toMatchObject({
      secure: true,
      httpOnly: true,
      sameSite: "Lax",
      path: "/",
    });

  // Three checks, each found by the admin below in the audit log in PostgreSQL.
  const insurance = new InsurancePage(page);
  for (const registration of ["AB12CDE", "UN51NSD", "AB12CDE"]) {
    await page.goto(`/vehicle/${registration}`);
    await expect(insurance.status).toHaveText(
      registration === "AB12CDE" ? "Insured" : "Not insured",
    );
  }

  // Signed out and in again with the password, through the sign-in form.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  // The session's cookie is gone; the device cookie stays, so this browser is still its own.
  expect((await page.context().cookies()).map((cookie) => cookie.name)).toEqual(
    ["__Host-vics_device"],
  );
  await page.goto("/vehicle/AB12CDE");
  await expect(page).toHaveURL(/\/sign-in\?returnTo=/);
  await page.getByLabel("Email address").fill(staff.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(insurance.status).toHaveText("Insured");

  // The admin, in a browser of their own.
  const adminInvite = await invite("admin");
  const admin = await browser.newContext({ ignoreHTTPSErrors: true });
  const adminPage = await admin.newPage();
  await setPassword(adminPage, adminInvite.link);
  const audit = new AuditPage(adminPage);
  await audit.open();
  await audit.search({ user: staff.email, registration: "AB12CDE" });
  await expect(audit.events("Insurance check", staff.email)).toHaveCount(3);
  await admin.close();
});

test("a fleet user runs a pasted fleet through the cluster, every row answered", async ({
  page,
  invite,
}) => {
  const fleetUser = await invite("fleet");
  await setPassword(page, fleetUser.link);

  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste("AB12CDE\nZZ99ZZZ\nUN51NSD");
  await expect(fleet.reviewValue("Vehicles to check")).toHaveText(/^3\b/);
  await fleet.startButton.click();
  await expect(fleet.finished).toHaveText("Finished: 3 vehicles checked.");
  await expect(fleet.figure("Vehicles", "Insured")).toHaveText("1");
  await expect(fleet.figure("Vehicles", "Not insured")).toHaveText("1");
  await expect(fleet.figure("Vehicles", "Not found")).toHaveText("1");
});
