// A fleet manager's spreadsheet of 10,000 rows, uploaded, checked, and downloaded as CSV and as
// Excel: every row accounted for, their own columns carried through, the answers the service's.
import Papa from "papaparse";
import readXlsxFile from "read-excel-file/node";
import writeXlsxFile from "write-excel-file/node";
import { expect, test } from "../fixtures.ts";
import { FleetPage } from "../pages/fleet-page.ts";
import { daysBetween, ukDate } from "@vics/shared";
import { apiOutcomes, seededRegistrations } from "./fleet-data.ts";

const ROWS = 10_000;

interface ListRow {
  fleetNumber: string;
  driver: string;
  registration: string;
  depot: string;
}

/** 10,000 rows: 9,900 seeded vehicles (some twice), 60 unknown plates, 40 invalid entries. */
async function tenThousandRows(): Promise<ListRow[]> {
  const seeded = await seededRegistrations(9_800);
  return Array.from({ length: ROWS }, (_, index): ListRow => {
    let registration: string;
    if (index >= 9_960) registration = `BAD-${index}!`;
    else if (index >= 9_900)
      registration = `ZZ${String(index % 90).padStart(2, "0")}ZZZ`;
    else if (index >= 9_800) registration = seeded[index - 9_800] ?? "";
    else registration = seeded[index] ?? "";
    return {
      fleetNumber: `F${String(index + 1).padStart(5, "0")}`,
      driver: `Driver ${index + 1}`,
      registration,
      depot: ["Leeds", "Hull", "York"][index % 3] ?? "",
    };
  });
}

function expectedOutcome(
  row: ListRow,
  answers: Awaited<ReturnType<typeof apiOutcomes>>,
  today: string,
): string {
  const compact = row.registration.replace(/[\s-]/g, "").toUpperCase();
  const answer = answers.get(compact);
  if (!answer) return "Invalid registration";
  if (answer.outcome === "not-found") return "Not found";
  if (answer.outcome === "not-insured") return "Not insured";
  const days = daysBetween(today, answer.validTo ?? today);
  return days <= 30 ? "Insured, expiring soon" : "Insured";
}

test("a 10,000-row CSV with extra columns, under injected faults: right totals, every row in both downloads, and a filtered download", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const rows = await tenThousandRows();
  // Faults on the way: of the bulk requests, the 2nd fails outright (a dropped connection), the
  // 4th gets a 502 and the 6th a 503, each once; the run must retry them.
  let bulkRequests = 0;
  const faults: string[] = [];
  await page.route("**/api/v1/vehicle/bulk-insurance", async (route) => {
    bulkRequests += 1;
    if (bulkRequests === 2) {
      faults.push("aborted");
      return route.abort("connectionreset");
    }
    if (bulkRequests === 4 || bulkRequests === 6) {
      const status = bulkRequests === 4 ? 502 : 503;
      faults.push(String(status));
      return route.fulfill({
        status,
        contentType: "application/problem+json",
        body: JSON.stringify({
          type: "about:blank",
          title: "Bad gateway",
          status,
          detail: "Injected fault",
          code: "BAD_GATEWAY",
          requestId: "injected",
        }),
      });
    }
    return route.continue();
  });
  const csv = Papa.unparse({
    fields: ["Fleet number", "Driver", "VRM", "Depot"],
    data: rows.map((row) => [
      row.fleetNumber,
      row.driver,
      row.registration,
      row.depot,
    ]),
  });
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.upload({
    name: "fleet-10000.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`\uFEFF${csv}`),
  });
  await expect(fleet.columnChoice).toHaveValue("2");
  await expect(fleet.reviewValue("Rows")).toHaveText("10,000");
  await expect(
    fleet.reviewValue("Rows with an invalid registration"),
  ).toHaveText("40");
  await expect(fleet.reviewValue("Rows repeating a vehicle")).toHaveText(
    /^100 /,
  );
  await fleet.startButton.click();
  await expect(fleet.finished).toHaveText("Finished: 9,860 vehicles checked.", {
    timeout: 60_000,
  });
  await expect(fleet.figure("Vehicles", "Not found")).toHaveText("60");
  await expect(fleet.figure("Vehicles", "Not checked")).toHaveText("0");
  await expect(fleet.figure("Your list", "Rows in your list")).toHaveText(
    "10,000",
  );
  expect(faults).toEqual(["aborted", "502", "503"]);

  const answers = await apiOutcomes(
    [...new Set(rows.map((row) => row.registration))].filter(
      (r) => !r.startsWith("BAD"),
    ),
  );
  const today = ukDate(new Date());

  const csvDownload = await fleet.download("CSV");
  expect(csvDownload.name).toMatch(/^vics-fleet-check-fleet-10000-.*\.csv$/);
  const parsed = Papa.parse<string[]>(
    csvDownload.bytes.toString("utf8").replace(/^\uFEFF/, ""),
    {
      skipEmptyLines: true,
    },
  ).data;
  const [header, ...exported] = parsed;
  // Their columns back in their order and names, VRM as it was in the file; then ours.
  expect(header?.slice(0, 7)).toEqual([
    "Row",
    "Fleet number",
    "Driver",
    "VRM",
    "Depot",
    "Registration",
    "Outcome",
  ]);
  expect(exported).toHaveLength(ROWS);
  const byLine = new Map(exported.map((cells) => [Number(cells[0]), cells]));
  rows.forEach((row, index) => {
    const cells = byLine.get(index + 2);
    expect(cells?.slice(1, 5), `row ${index + 2}`).toEqual([
      row.fleetNumber,
      row.driver,
      row.registration,
      row.depot,
    ]);
    expect(cells?.[6], `row ${index + 2}`).toBe(
      expectedOutcome(row, answers, today),
    );
  });

  const xlsxDownload = await fleet.download("Excel (.xlsx)");
  expect(xlsxDownload.name).toMatch(/\.xlsx$/);
  const [sheet] = await readXlsxFile(xlsxDownload.bytes);
  const [xlsxHeader, ...xlsxRows] = (sheet?.data ?? []).map((cells) =>
    cells.map((cell) => (cell === null ? "" : String(cell))),
  );
  expect(xlsxHeader).toEqual(header);
  expect(xlsxRows).toHaveLength(ROWS);
  expect(new Set(xlsxRows.map((cells) => cells.slice(0, 7).join("|")))).toEqual(
    new Set(exported.map((cells) => cells.slice(0, 7).join("|"))),
  );

  // Filtered: only the vehicles not found, and only those rows downloaded.
  await page.getByRole("combobox", { name: "Show" }).selectOption("Not found");
  await expect(
    page.getByText("Showing 60 of 10,000 rows.", { exact: true }).first(),
  ).toBeVisible();
  await page.getByRole("radio", { name: /Only the rows shown below/ }).check();
  const filtered = await fleet.download("CSV");
  const [, ...filteredRows] = Papa.parse<string[]>(
    filtered.bytes.toString("utf8").replace(/^\uFEFF/, ""),
    { skipEmptyLines: true },
  ).data;
  expect(filteredRows).toHaveLength(60);
  expect(new Set(filteredRows.map((cells) => cells[6]))).toEqual(
    new Set(["Not found"]),
  );
});

test("an uploaded XLSX: the registration column found, the other columns kept", async ({
  page,
}) => {
  const seeded = await seededRegistrations(3);
  const sheet = [
    ["Depot", "Number plate", "Driver"],
    ["Leeds", "AB12 CDE", "Sam"],
    ["Hull", seeded[0], "Alex"],
    ["York", "UN51NSD", "Jo"],
    ["York", "", "Kim"],
  ].map((cells) => cells.map((value) => ({ value, type: String })));
  const buffer = await writeXlsxFile(sheet, { sheet: "Vehicles" }).toBuffer();
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.upload({
    name: "depots.xlsx",
    mimeType:
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer,
  });
  await expect(fleet.columnChoice).toHaveValue("1");
  await expect(fleet.reviewValue("Rows")).toHaveText("4");
  await expect(
    fleet.reviewValue("Rows with an invalid registration"),
  ).toHaveText("1");
  await expect(page.getByText("Row 5:").locator("..")).toContainText(
    "No registration in this row",
  );
  await fleet.startButton.click();
  await expect(fleet.finished).toHaveText("Finished: 3 vehicles checked.");
  const table = await fleet.visibleRows();
  expect(table.map((cells) => cells[1])).toContain("AB12 CDE");
  // The user's columns come right after the answer: Depot, then Driver, as in their sheet.
  expect(table.find((cells) => cells[1] === "UN51 NSD")?.slice(3, 5)).toEqual([
    "York",
    "Jo",
  ]);
});

test("a workbook whose fleet is on its second sheet: the sheets offered, that one chosen", async ({
  page,
}) => {
  const seeded = await seededRegistrations(2);
  const text = (rows: Array<Array<string | number>>) =>
    rows.map((cells) =>
      cells.map((value) =>
        typeof value === "number"
          ? { value, type: Number }
          : { value, type: String },
      ),
    );
  const buffer = await writeXlsxFile([
    {
      sheet: "Fleet summary – Q4",
      data: text([
        ["Fleet summary – Q4"],
        ["Depot", "Vehicles"],
        ["Leeds", 2],
        ["York", 1],
      ]),
    },
    {
      sheet: "Vehicles",
      data: text([
        ["Registration", "Depot"],
        ["AB12 CDE", "Leeds"],
        [seeded[0] ?? "", "Leeds"],
        [seeded[1] ?? "", "York"],
      ]),
    },
  ]).toBuffer();
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.upload({
    name: "q4-fleet.xlsx",
    mimeType:
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer,
  });
  await expect(fleet.sheet("Vehicles")).toBeChecked();
  await expect(fleet.sheet("Vehicles")).toHaveAccessibleName(
    "Vehicles 3 rows, 3 registrations",
  );
  await expect(fleet.sheet("Fleet summary – Q4")).toHaveAccessibleName(
    /no registrations found$/,
  );
  await fleet.continueButton.click();
  await expect(fleet.reviewHeading).toBeFocused();
  await expect(
    page.getByText("q4-fleet.xlsx (sheet “Vehicles”)"),
  ).toBeVisible();
  await expect(fleet.reviewValue("Rows")).toHaveText("3");
  await expect(
    fleet.reviewValue("Rows with an invalid registration"),
  ).toHaveText("0");
  await fleet.startButton.click();
  await expect(fleet.finished).toHaveText("Finished: 3 vehicles checked.");
});
