// The insurance check page: locators and actions only, no assertions.
import type { Page } from "@playwright/test";
import { CheckPage } from "./check-page.ts";

export class InsurancePage extends CheckPage {
  constructor(page: Page) {
    super(page, "Check insurance");
  }

  get status() {
    return this.page.getByRole("heading", { level: 2, name: /insured/i });
  }
  get result() {
    return this.page.locator("section.result");
  }
  get complianceLink() {
    return this.page.getByRole("link", { name: /Check compliance for/ });
  }
  detail(label: string) {
    return this.result
      .locator("dt", { hasText: label })
      .locator("xpath=following-sibling::dd[1]");
  }

  async open() {
    await this.page.goto("/");
  }
}
