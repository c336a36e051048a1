// A fleet manager's journey through the built app, timed: upload the list on /fleet, see the
// review's counts, start the check, wait for the final summary. The locators are the e2e page
// object's (e2e/src/pages/fleet-page.ts), by role and label.
import type { Page } from "playwright-core";
import type { FleetFile } from "./fleet-file.ts";
import type { PageScope } from "./page-scope.ts";

export interface JourneyTimes {
  /** From the file input's change to the review showing the row count: read and validated. */
  parseMs: number;
  /** From setInputFiles to the final summary, as the bench saw it. */
  uploadToSummaryMs: number;
  /** From the click on "Check N vehicles" to the final summary. */
  runMs: number;
  /** The app's own words at the end ("Finished: 98,950 vehicles checked."). */
  finished: string;
  notChecked: string;
}

const count = (value: number) => value.toLocaleString("en-GB");

function reviewValue(page: Page, label: string) {
  return page
    .locator("dt", { hasText: new RegExp(`^${label}$`) })
    .locator("xpath=following-sibling::dd[1]");
}

function summaryFigure(page: Page, group: string, label: string) {
  return page
    .getByRole("region", { name: "Summary" })
    .locator(
      `xpath=.//h3[normalize-space()="${group}"]/following-sibling::dl[1]` +
        `//dt[normalize-space()="${label}"]/following-sibling::dd[1]/span[1]`,
    );
}

async function expectText(
  what: string,
  actual: Promise<string>,
  expected: string | RegExp,
) {
  const text = (await actual).trim();
  const ok =
    typeof expected === "string" ? text === expected : expected.test(text);
  if (!ok)
    throw new Error(
      `The app's review says ${what} is "${text}", not ${String(expected)}`,
    );
}

/** Runs the journey on `page`; throws when the app's counts are not the file's. */
export async function fleetJourney(
  page: Page,
  baseUrl: string,
  file: FleetFile,
  timeoutMs: number,
): Promise<JourneyTimes> {
  await page.goto(new URL("fleet", baseUrl).href);
  const input = page.getByLabel("Upload a file");
  await input.waitFor({ state: "attached" });
  await page.evaluate(() => {
    const scope = globalThis as unknown as PageScope;
    scope.benchUploadAt = undefined;
    scope.document.addEventListener(
      "change",
      () => (scope.benchUploadAt = scope.performance.now()),
      { capture: true, once: true },
    );
  });

  const uploaded = performance.now();
  await input.setInputFiles({
    name: `fleet-${file.expected.rows}.csv`,
    mimeType: "text/csv",
    buffer: Buffer.from(file.csv),
  });
  // Checked each frame in the page, so the time is the page's, not a polling interval's.
  const parsed = await page.waitForFunction(
    (rows) => {
      const scope = globalThis as unknown as PageScope;
      const terms = Array.from(scope.document.querySelectorAll("dt"));
      const term = terms.find((dt) => dt.textContent === "Rows");
      if (scope.benchUploadAt === undefined) return undefined;
      return term?.nextElementSibling?.textContent === rows
        ? scope.performance.now() - scope.benchUploadAt
        : undefined;
    },
    count(file.expected.rows),
    { polling: "raf", timeout: timeoutMs },
  );
  const parseMs = (await parsed.jsonValue()) ?? NaN;

  const { expected } = file;
  await expectText(
    "the registration column",
    page
      .getByRole("combobox", { name: "Which column has the registrations?" })
      .inputValue(),
    String(file.registrationColumn),
  );
  await expectText(
    "the vehicles to check",
    reviewValue(page, "Vehicles to check").innerText(),
    `${count(expected.unique)} (each checked once)`,
  );
  await expectText(
    "the repeated rows",
    reviewValue(page, "Rows repeating a vehicle").innerText(),
    new RegExp(`^${count(expected.duplicates)}\\b`),
  );
  await expectText(
    "the invalid rows",
    reviewValue(page, "Rows with an invalid registration").innerText(),
    count(expected.invalid),
  );

  const started = performance.now();
  await page
    .getByRole("button", { name: `Check ${count(expected.unique)} vehicles` })
    .click();
  const finishedLine = page.getByText(/^Finished: /);
  await finishedLine.waitFor({ timeout: timeoutMs });
  const ended = performance.now();
  return {
    parseMs,
    uploadToSummaryMs: ended - uploaded,
    runMs: ended - started,
    finished: (await finishedLine.innerText()).trim(),
    notChecked: (
      await summaryFigure(page, "Vehicles", "Not checked").innerText()
    ).trim(),
  };
}
