// What the insurance and compliance pages share: the registration form and the error panel.
// Locators and actions only, no assertions.
import type { Page } from "@playwright/test";

export class CheckPage {
  readonly page: Page;
  readonly submitLabel: string;

  constructor(page: Page, submitLabel: string) {
    this.page = page;
    this.submitLabel = submitLabel;
  }

  get registrationInput() {
    return this.page.getByLabel("Registration number");
  }
  get submitButton() {
    return this.page.getByRole("button", { name: this.submitLabel });
  }
  get errorPanel() {
    return this.page.locator("section.error-panel");
  }
  get fieldError() {
    return this.page.locator(".error-message");
  }
  /** The GOV.UK error summary at the top of the page. */
  get errorSummary() {
    return this.page.getByRole("alert").filter({
      has: this.page.getByRole("heading", { name: "There is a problem" }),
    });
  }
  get header() {
    return this.page.getByRole("banner");
  }
  get primaryNav() {
    return this.page.getByRole("navigation", { name: "Primary" });
  }
  get checkAgainButton() {
    return this.page.getByRole("button", { name: /Check(ing)? again/ });
  }
  get tryAgainButton() {
    return this.page.getByRole("button", { name: /Try again/ });
  }

  async check(registration: string) {
    await this.registrationInput.fill(registration);
    await this.submitButton.click();
  }
}
