// The compliance dashboard: locators and actions only, no assertions.
import type { Page } from "@playwright/test";

export type CheckName = "Insurance" | "MOT" | "Road tax" | "Fines";

export class CompliancePage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  get registrationInput() {
    return this.page.getByLabel("Registration number");
  }
  get submitButton() {
    return this.page.getByRole("button", { name: "Check compliance" });
  }
  get verdict() {
    return this.page.getByRole("heading", { level: 2, name: /compliant/i });
  }
  get verdictBanner() {
    return this.page.locator(".compliance-verdict");
  }
  get checks() {
    return this.page.getByRole("list", { name: "Checks" });
  }
  badge(name: CheckName) {
    return this.checks
      .getByRole("listitem")
      .filter({ has: this.page.getByRole("heading", { name, exact: true }) });
  }
  get checkAgainButton() {
    return this.page.getByRole("button", { name: /Check(ing)? again/ });
  }
  get checkedAt() {
    return this.page.getByText(/^Checked at/);
  }
  get insuranceLink() {
    return this.page.getByRole("link", { name: /View insurance details for/ });
  }

  async open(registration?: string) {
    await this.page.goto(
      registration ? `/compliance/${registration}` : "/compliance",
    );
  }

  async check(registration: string) {
    await this.registrationInput.fill(registration);
    await this.submitButton.click();
  }
}
