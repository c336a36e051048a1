// Insurance journeys: the single insurance check from the browser to the database and back.
import { expect, test } from "./fixtures.ts";
import { InsurancePage } from "./pages/insurance-page.ts";
import { lp08sedLapsedDaysAgo } from "./seeded-days.ts";

test("AB12CDE: insured, with policy and vehicle, at a shareable URL", async ({
  page,
}) => {
  const insurance = new InsurancePage(page);
  await insurance.open();
  await insurance.check("ab12 cde");

  await expect(page).toHaveURL(/\/vehicle\/AB12CDE$/);
  await expect(insurance.status).toHaveText("Insured");
  await expect(insurance.result.getByText("AB12 CDE").first()).toBeVisible();
  await expect(insurance.detail("Cover type")).toHaveText("Comprehensive");
  await expect(insurance.detail("Insurer")).not.toBeEmpty();
  await expect(insurance.detail("Policy number")).toHaveText("REF-AB12CDE");
  await expect(insurance.detail("Valid from")).toHaveText(
    /^\d{1,2} \w+ \d{4}$/,
  );
  await expect(insurance.detail("Make")).toHaveText("Ford");
  await expect(insurance.detail("Model")).toHaveText("Focus");
  await expect(insurance.detail("Year")).toHaveText("2012");
  await expect(insurance.detail("Colour")).toHaveText("Blue");
  await expect(insurance.detail("Valid to")).toContainText(/ends in \d+ days/);
  await expect(insurance.result).toContainText("Record last updated");

  // The shared URL shows the same answer when opened afresh.
  await page.reload();
  await expect(insurance.status).toHaveText("Insured");
});

test("UN51NSD: not insured, no policy on record", async ({ page }) => {
  const insurance = new InsurancePage(page);
  await page.goto("/vehicle/UN51NSD");
  await expect(insurance.status).toHaveText("Not insured");
  await expect(insurance.result).toContainText("No insurance policy on record");
  await expect(insurance.detail("Make")).not.toBeEmpty();
});

test("LP08SED: lapsed 20 days ago, last policy shown", async ({ page }) => {
  const insurance = new InsurancePage(page);
  await page.goto("/vehicle/LP08SED");
  await expect(insurance.status).toHaveText("Not insured");
  await expect(
    insurance.result.getByRole("heading", { name: "Last policy" }),
  ).toBeVisible();
  await expect(insurance.detail("Valid to")).toContainText(
    `ended ${await lp08sedLapsedDaysAgo()} days ago`,
  );
});

test("an unknown registration says so, with a way forward", async ({
  page,
}) => {
  const insurance = new InsurancePage(page);
  await insurance.open();
  await insurance.check("ZZ99ZZZ");
  await expect(insurance.errorPanel.getByRole("heading")).toHaveText(
    "No vehicle found",
  );
  await expect(insurance.errorPanel).toContainText(
    "No vehicle found with registration ZZ99 ZZZ. Check the letters O and 0, I and 1.",
  );
  // Staff can act on this themselves: no reference for support.
  await expect(insurance.errorPanel).not.toContainText("Reference:");
  await expect(insurance.errorPanel.getByRole("heading")).toBeFocused();
  await expect(page).toHaveTitle("Error: ZZ99 ZZZ – Insurance check – VICS");
});

test("an invalid registration is caught in the browser and sends no request", async ({
  page,
}) => {
  // Checks only: the page's own questions (who is signed in, recent checks) are not checks.
  const apiRequests: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/v1/"))
      apiRequests.push(request.url());
  });
  const insurance = new InsurancePage(page);
  await insurance.open();
  await insurance.check("AB12 CD!");
  await expect(insurance.fieldError).toContainText(
    "Registration must only include letters A to Z and numbers 0 to 9",
  );
  await expect(insurance.registrationInput).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  // The GOV.UK error summary takes focus, and its link puts the user back in the field.
  await expect(insurance.errorSummary).toBeVisible();
  await expect(insurance.errorSummary.locator("..")).toBeFocused();
  await expect(page).toHaveTitle("Error: Insurance check – VICS");
  await insurance.errorSummary
    .getByRole("link", {
      name: "Registration must only include letters A to Z and numbers 0 to 9",
    })
    .click();
  await expect(insurance.registrationInput).toBeFocused();
  await expect(page).toHaveURL(/\/$/);

  await insurance.check("ABCDEFG");
  await expect(insurance.fieldError).toContainText(
    "Enter a registration in a UK format",
  );
  await expect(page).toHaveURL(/\/$/);
  expect(apiRequests).toEqual([]);
});

test("ER19ERR: the service fails, and Try again sends the check again", async ({
  page,
}) => {
  const attempts: number[] = [];
  page.on("response", (response) => {
    if (response.url().endsWith("/api/v1/vehicle/ER19ERR/insurance"))
      attempts.push(response.status());
  });
  const insurance = new InsurancePage(page);
  await insurance.open();
  await insurance.check("ER19ERR");

  await expect(insurance.errorPanel.getByRole("heading")).toHaveText(
    "The vehicle service had a problem",
  );
  // One automatic retry of a 500 before the panel shows, then the way forward is the button.
  await expect.poll(() => attempts).toEqual([500, 500]);
  await expect(insurance.errorPanel).toContainText("Reference:");
  const before = attempts.length;
  await insurance.tryAgainButton.click();
  await expect.poll(() => attempts.length).toBeGreaterThan(before);
  await expect(insurance.errorPanel.getByRole("heading")).toHaveText(
    "The vehicle service had a problem",
  );
  await expect(insurance.tryAgainButton).toBeVisible();

  // The way forward also includes checking another vehicle straight away.
  await insurance.check("AB12CDE");
  await expect(insurance.status).toHaveText("Insured");
});

test("Check again makes a new insurance check, as on the compliance view", async ({
  page,
}) => {
  const checks: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/v1/vehicle/AB12CDE/insurance"))
      checks.push(request.url());
  });
  const insurance = new InsurancePage(page);
  await page.goto("/vehicle/AB12CDE");
  await expect(insurance.status).toHaveText("Insured");
  await expect.poll(() => checks.length).toBe(1);
  await expect(insurance.result.getByText(/^Checked at/)).toBeVisible();
  await insurance.checkAgainButton.click();
  await expect.poll(() => checks.length).toBe(2);
  await expect(insurance.checkAgainButton).toHaveText("Check again");
  await expect(insurance.status).toHaveText("Insured");
});
