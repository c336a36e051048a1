// The admin's audit log page: locators and actions only, no assertions.
import type { Page } from "@playwright/test";

export class AuditPage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  /** The results' rows. */
  get rows() {
    return this.page.getByRole("table").getByRole("row");
  }

  /** The rows of one action ("Insurance check", "Sign-in refused") by one user. */
  events(action: string, email: string) {
    return this.rows.filter({ hasText: action }).filter({ hasText: email });
  }

  async open() {
    await this.page.goto("/admin/audit");
  }

  /** Searches by user and registration; an empty registration searches by the user alone. */
  async search(criteria: { user: string; registration: string }) {
    await this.page.getByLabel("User").fill(criteria.user);
    await this.page.getByLabel("Registration").fill(criteria.registration);
    await this.page.getByRole("button", { name: "Search" }).click();
  }
}
