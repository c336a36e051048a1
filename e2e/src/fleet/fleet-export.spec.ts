// The downloads of a checked list, in real Chromium: the file made off the page's thread with
// its progress shown (and the page usable meanwhile), cancelled, and read back.
import Papa from "papaparse";
import readXlsxFile from "read-excel-file/node";
import { REFERENCE_REGISTRATIONS } from "@vics/shared";
import type { Page, Route } from "@playwright/test";
import { expect, test } from "../fixtures.ts";
import { FleetPage } from "../pages/fleet-page.ts";
import { InsurancePage } from "../pages/insurance-page.ts";
import { seededRegistrations } from "./fleet-data.ts";

/** A fleet list: the reference plates, then seeded vehicles; each with a fleet number and a driver. */
async function fleetList(seeded: number): Promise<string[][]> {
  const plates = [
    ...REFERENCE_REGISTRATIONS,
    ...(await seededRegistrations(seeded)),
  ];
  return plates.map((plate, index) => [
    `F${String(index + 1).padStart(4, "0")}`,
    `Driver ${index + 1}`,
    plate,
  ]);
}

async function checkList(page: Page, rows: string[][]): Promise<FleetPage> {
  const fleet = new FleetPage(page);
  await fleet.open();
  const csv = Papa.unparse({
    fields: ["Fleet number", "Driver", "Registration"],
    data: rows,
  });
  await fleet.upload({
    name: "north-depot.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(csv),
  });
  await expect(fleet.columnChoice).toHaveValue("2");
  await fleet.complianceOption.check();
  await fleet.startButton.click();
  await expect(fleet.finished).toBeVisible({ timeout: 60_000 });
  return fleet;
}

/** Holds the export worker's script until released: the file cannot be ready before then. */
async function holdExportWorker(page: Page): Promise<() => Promise<void>> {
  const held: Route[] = [];
  let arrived = () => {};
  const requested = new Promise<void>((resolve) => (arrived = resolve));
  await page.route("**/assets/export-worker-*.js", (route) => {
    held.push(route);
    arrived();
  });
  return async () => {
    await requested;
    await Promise.all(held.map((route) => route.continue()));
    await page.unroute("**/assets/export-worker-*.js");
  };
}

test("an Excel download shows its progress, leaves the page usable, and holds every row", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const rows = await fleetList(1_000);
  const fleet = await checkList(page, rows);

  const release = await holdExportWorker(page);
  const download = page.waitForEvent("download");
  await fleet.downloadButton("Excel (.xlsx)").click();
  await expect(fleet.exportProgress("Excel file")).toBeVisible();
  await expect(page.getByText(/^Preparing Excel file… \d+%$/)).toBeVisible();
  // The page answers while the file is made: a search filters the table.
  await fleet.searchBox.fill("Driver 7");
  await expect(
    page.getByText(/^Showing \d+ of [\d,]+ rows\.$/).first(),
  ).toBeVisible();
  await fleet.searchBox.fill("");
  await release();

  const file = await download;
  expect(file.suggestedFilename()).toMatch(
    /^vics-fleet-check-north-depot-.*\.xlsx$/,
  );
  const [sheet] = await readXlsxFile(await file.path());
  const [header, ...body] = sheet?.data ?? [];
  expect(header?.slice(0, 6)).toEqual([
    "Row",
    "Fleet number",
    "Driver",
    "Registration (your list)",
    "Registration",
    "Outcome",
  ]);
  expect(body).toHaveLength(rows.length);
  const notInsured = body.find((cells) => cells[4] === "UN51 NSD");
  expect(notInsured?.slice(1, 3)).toEqual(["F0002", "Driver 2"]);
  expect(notInsured?.[5]).toBe("Not insured");
  await expect(fleet.exportProgress("Excel file")).toBeHidden();
});

test("a CSV download can be cancelled, and then made in full, a lapsed vehicle's last policy in it as the single check shows it", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const rows = await fleetList(200);
  const fleet = await checkList(page, rows);

  const release = await holdExportWorker(page);
  await fleet.downloadButton("CSV").click();
  await expect(fleet.exportProgress("CSV file")).toBeVisible();
  await fleet.cancelDownloadButton.click();
  await expect(fleet.exportProgress("CSV file")).toBeHidden();
  await expect(
    page.getByText("Download cancelled. No file was saved."),
  ).toBeAttached();
  await expect(fleet.downloadButton("CSV")).toBeFocused();
  await release();

  const csv = await fleet.download("CSV");
  const [header, ...body] = Papa.parse<string[]>(
    csv.bytes.toString("utf8").replace(/^\uFEFF/, ""),
    {
      skipEmptyLines: true,
    },
  ).data;
  expect(header?.slice(0, 3)).toEqual(["Row", "Fleet number", "Driver"]);
  expect(body.map((cells) => cells[1])).toEqual(rows.map((cells) => cells[0]));

  // A file is read on later days than it is made: dates in it, never an age.
  expect(body.flat().filter((cell) => /\bago\b/i.test(cell))).toEqual([]);
  // The lapsed vehicle carries its last policy, as the single check shows it.
  const lapsed = Object.fromEntries(
    (header ?? []).map((name, index) => [
      name,
      body.find((cells) => cells.includes("LP08 SED"))?.[index],
    ]),
  );
  expect(lapsed).toMatchObject({
    Outcome: "Not insured",
    "Valid to": expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
  });
  expect(lapsed.Notes).toBe(`Lapsed on ${lapsed["Valid to"]}`);
  const insurance = new InsurancePage(page);
  await page.goto("/vehicle/LP08SED");
  await expect(insurance.status).toHaveText("Not insured");
  await expect(insurance.detail("Insurer")).toHaveText(lapsed.Insurer ?? "");
  await expect(insurance.detail("Policy number")).toHaveText(
    lapsed["Policy number"] ?? "",
  );
  await expect(insurance.detail("Valid to")).toContainText(
    new Date(`${lapsed["Valid to"]}T00:00:00Z`).toLocaleDateString("en-GB", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }),
  );
});

test("the printed report holds the list's name, the counts and the vehicles needing action, and none of the app", async ({
  page,
}) => {
  test.setTimeout(90_000);
  // The browser's print dialog is the browser's; the page's print styles are what is tested.
  await page.addInitScript(() => {
    window.print = () => undefined;
  });
  const rows = await fleetList(20);
  const fleet = await checkList(page, rows);
  await expect(fleet.report).toBeHidden();
  await fleet.printReportButton.click();
  // On screen the report stays out of the way.
  await expect(fleet.report).toBeHidden();

  await page.emulateMedia({ media: "print" });
  await expect(
    fleet.report.getByRole("heading", {
      level: 1,
      name: "Fleet check report: north-depot.csv",
    }),
  ).toBeVisible();
  // Who ran the check, when, and when it was printed.
  const head = fleet.report.locator(".printed-by");
  await expect(head).toBeVisible();
  await expect(head).toContainText(/Checked by\s*E2E admin/);
  await expect(head).toContainText(/Checked on\s*\d+ \w+ \d{4} at \d\d:\d\d/);
  await expect(head).toContainText(/Printed on\s*\d+ \w+ \d{4} at \d\d:\d\d/);
  await expect(fleet.report.getByText("Rows in the list")).toBeVisible();
  const table = fleet.report.getByRole("table", {
    name: "Vehicles that need action",
  });
  await expect(
    table.getByRole("columnheader", { name: "Fleet number" }),
  ).toBeVisible();
  const uninsured = table.getByRole("row").filter({ hasText: "UN51 NSD" });
  await expect(uninsured.getByRole("cell")).toHaveText([
    "Not insured",
    "UN51 NSD",
    "3",
    "F0002",
    "Driver 2",
    /^Never insured/,
  ]);
  // Insured, compliant vehicles with nothing due are not the report's business.
  await expect(
    table.getByRole("row").filter({ hasText: "AB12 CDE" }),
  ).toHaveCount(0);
  // None of the app is printed.
  await expect(page.getByRole("banner")).toBeHidden();
  await expect(
    page.getByRole("heading", { name: "Download the results" }),
  ).toBeHidden();
  await expect(fleet.printReportButton).toBeHidden();
  await expect(fleet.resultsTable).toBeHidden();

  await page.emulateMedia({ media: "screen" });
  await expect(fleet.report).toBeHidden();
  await expect(fleet.printReportButton).toBeVisible();
});
