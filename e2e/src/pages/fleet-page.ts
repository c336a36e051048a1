// The fleet check's pages: locators and actions only, no assertions.
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";

export class FleetPage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  get pasteBox() {
    return this.page.getByRole("textbox", { name: "Paste registrations" });
  }
  get fileInput() {
    return this.page.getByLabel("Upload a file");
  }
  get continueButton() {
    return this.page.getByRole("button", { name: "Continue" });
  }
  get reviewHeading() {
    return this.page.getByRole("heading", { name: "Check your list" });
  }
  get chooseDifferentList() {
    return this.page.getByRole("button", { name: "Choose a different list" });
  }
  /** The correction field of an invalid row of the review. */
  rowField(line: number) {
    return this.page.getByRole("textbox", {
      name: `Registration for row ${line}`,
    });
  }
  /** An O/0, I/1 suggestion for an invalid row, e.g. ("AB10 CDE", 1). */
  suggestion(registration: string, line: number) {
    return this.page.getByRole("button", {
      name: `Use ${registration} for row ${line}`,
    });
  }
  get excludeAllButton() {
    return this.page.getByRole("button", { name: /^Exclude all / });
  }
  get invalidRowsHeading() {
    return this.page.getByRole("heading", {
      name: /^Rows with an invalid registration/,
    });
  }
  get addField() {
    return this.page.getByRole("textbox", { name: "Add a vehicle to check" });
  }
  get addedRows() {
    return this.page
      .getByRole("region", { name: "Vehicles you added" })
      .getByRole("listitem");
  }
  get columnChoice() {
    return this.page.getByRole("combobox", {
      name: "Which column has the registrations?",
    });
  }
  /** A workbook's sheets, offered when more than one is in use. */
  get sheetChoice() {
    return this.page.getByRole("group", {
      name: "Which sheet has your vehicles?",
    });
  }
  /** One sheet of that choice, by its name (its rows follow the name). */
  sheet(name: string) {
    return this.sheetChoice.getByRole("radio", {
      name: new RegExp(`^${name}`),
    });
  }
  get pastedLines() {
    return this.page.getByRole("table", {
      name: "What we took from each line",
    });
  }
  get showAllPastedLines() {
    return this.page.getByRole("button", { name: /^Show all [\d,]+ lines$/ });
  }
  /** The row of "What we took from each line" for one line of the paste. */
  pastedLine(line: number) {
    return this.pastedLines.getByRole("row").filter({
      has: this.page.getByRole("cell", { name: String(line), exact: true }),
    });
  }
  get complianceOption() {
    return this.page.getByRole("checkbox", { name: /Also check compliance/ });
  }
  get startButton() {
    return this.page.getByRole("button", { name: /^Check [\d,]+ vehicles?$/ });
  }
  get progress() {
    return this.page.getByRole("progressbar", { name: "Vehicles checked" });
  }
  get finished() {
    return this.page.getByText(/^Finished: /);
  }
  get resumeButton() {
    return this.page.getByRole("button", { name: /^Resume checking/ });
  }
  get stopButton() {
    return this.page.getByRole("button", { name: "Stop checking" });
  }
  get retryButton() {
    return this.page.getByRole("button", { name: /^Retry the / });
  }
  get elsewhereHeading() {
    return this.page.getByRole("heading", {
      name: "This check is running in another tab or window",
    });
  }
  get resultsTable() {
    return this.page.getByRole("region", { name: /^Showing / });
  }
  /** On a narrow screen: the card of the row with this registration (as shown, "AB12 CDE"). */
  resultCard(registration: string) {
    return this.resultsTable
      .getByRole("listitem")
      .filter({ has: this.page.getByRole("link", { name: registration }) });
  }
  get errorSummary() {
    return this.page.getByRole("alert").filter({
      has: this.page.getByRole("heading", { name: "There is a problem" }),
    });
  }
  /** The value beside a label in the review's summary list (a dt/dd pair). */
  reviewValue(label: string) {
    return this.page
      .locator("dt", { hasText: new RegExp(`^${label}$`) })
      .locator("xpath=following-sibling::dd[1]");
  }
  /** A figure of the run's summary, e.g. ("Vehicles", "Not insured"). */
  figure(group: string, label: string) {
    return this.page
      .getByRole("region", { name: "Summary" })
      .locator(
        `xpath=.//h3[normalize-space()="${group}"]/following-sibling::dl[1]` +
          `//dt[normalize-space()="${label}"]/following-sibling::dd[1]/span[1]`,
      );
  }
  /** The cells of the table rows in view. */
  async visibleRows(): Promise<string[][]> {
    return this.resultsTable
      .locator("tbody tr:not([aria-hidden])")
      .evaluateAll((rows) =>
        rows.map((row) =>
          [...row.querySelectorAll("th, td")].map(
            (cell) => cell.textContent ?? "",
          ),
        ),
      );
  }

  async open() {
    await this.page.goto("/fleet");
  }
  /**
   * Pastes `text` as a person does, through the clipboard: one paste, however long. (Typing it,
   * or `fill`, inserts it line by line, which takes minutes for 10,000 lines in any textarea.)
   */
  async paste(text: string) {
    await this.page
      .context()
      .grantPermissions(["clipboard-read", "clipboard-write"]);
    await this.page.evaluate(
      (value) => navigator.clipboard.writeText(value),
      text,
    );
    await this.pasteBox.focus();
    await this.page.keyboard.press("ControlOrMeta+A");
    await this.page.keyboard.press("ControlOrMeta+V");
    await this.continueButton.click();
  }
  async upload(file: { name: string; mimeType: string; buffer: Buffer }) {
    await this.fileInput.setInputFiles(file);
  }
  downloadButton(kind: "CSV" | "Excel (.xlsx)") {
    return this.page.getByRole("button", { name: `Download ${kind}` });
  }
  /** The bar of a download being prepared, e.g. ("Excel file"). */
  exportProgress(file: "CSV file" | "Excel file") {
    return this.page.getByRole("progressbar", { name: `Preparing ${file}` });
  }
  get cancelDownloadButton() {
    return this.page.getByRole("button", { name: "Cancel download" });
  }
  get printReportButton() {
    return this.page.getByRole("button", { name: "Print report" });
  }
  /** The printable report, shown only in print. */
  get report() {
    return this.page.getByRole("article").filter({
      has: this.page.getByRole("heading", { name: /^Fleet check report: / }),
    });
  }
  get searchBox() {
    return this.page.getByRole("searchbox", { name: /^Search/ });
  }
  /** Downloads the results in one format and returns the file's bytes. */
  async download(
    kind: "CSV" | "Excel (.xlsx)",
  ): Promise<{ name: string; bytes: Buffer }> {
    const [download] = await Promise.all([
      this.page.waitForEvent("download"),
      this.page.getByRole("button", { name: `Download ${kind}` }).click(),
    ]);
    const path = await download.path();
    return { name: download.suggestedFilename(), bytes: await readFile(path) };
  }
}
