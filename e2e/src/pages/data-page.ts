// The admins' data page: locators and actions only, no assertions.
import type { Page } from "@playwright/test";

export class DataPage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  get sources() {
    return this.page.getByRole("table", {
      name: "How fresh each source's data is",
    });
  }

  /** The imports table's row of the file named `fileName`. */
  importOf(fileName: string) {
    return this.page
      .getByRole("table", { name: "Imports, newest first" })
      .getByRole("row")
      .filter({ hasText: fileName });
  }

  async open() {
    await this.page.goto("/admin/data");
  }
}
