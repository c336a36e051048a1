// The compliance dashboard: locators and actions only, no assertions.
import type { Page } from "@playwright/test";
import { CheckPage } from "./check-page.ts";

export type CheckName = "Insurance" | "MOT" | "Road tax" | "Fines";

export class CompliancePage extends CheckPage {
  constructor(page: Page) {
    super(page, "Check compliance");
  }

  get verdict() {
    return this.page.getByRole("heading", { level: 2, name: /compliant/i });
  }
  get verdictBanner() {
    return this.page.locator(".compliance-verdict");
  }
  get checks() {
    return this.page.getByRole("list", { name: "Checks", exact: true });
  }
  badge(name: CheckName) {
    return this.checks
      .getByRole("listitem")
      .filter({ has: this.page.getByRole("heading", { name, exact: true }) });
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
}
