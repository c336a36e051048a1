// The insurance check page: locators and actions only, no assertions.
import type { Page } from "@playwright/test";

export class InsurancePage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  get registrationInput() {
    return this.page.getByLabel("Registration number");
  }
  get submitButton() {
    return this.page.getByRole("button", { name: "Check insurance" });
  }
  get status() {
    return this.page.getByRole("heading", { level: 2, name: /insured/i });
  }
  get result() {
    return this.page.locator("section.result");
  }
  get errorPanel() {
    return this.page.locator("section.error-panel");
  }
  get fieldError() {
    return this.page.locator(".error-message");
  }
  get tryAgainButton() {
    return this.page.getByRole("button", { name: /Try again/ });
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

  async check(registration: string) {
    await this.registrationInput.fill(registration);
    await this.submitButton.click();
  }
}
