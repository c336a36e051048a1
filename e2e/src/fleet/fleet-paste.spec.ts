// Fleet journeys with a pasted list, over the real stack: counts before sending and one outcome
// on every row after; compliance over the reference plates; the sandbox's refusals survived.
import { expect, test } from "../fixtures.ts";
import { FleetPage } from "../pages/fleet-page.ts";
import {
  EMAIL_LINES_WITHOUT_PLATES,
  EMAIL_PASTE,
} from "@vics/shared/testing/email-paste";
import { lp08sedLapsedDaysAgo } from "../seeded-days.ts";

test("five pasted registrations: the counts before sending, then every row", async ({
  page,
  traffic,
}) => {
  const fleet = new FleetPage(page);
  await fleet.open();
  // A reference plate, an unknown one, an invalid one, a duplicate and a lowercase one.
  await fleet.paste("AB12CDE\nZZ99ZZZ\nAB12 CD!\nAB12CDE\nun51nsd");

  await expect(fleet.reviewHeading).toBeVisible();
  await expect(fleet.reviewValue("Rows")).toHaveText("5");
  await expect(fleet.reviewValue("Vehicles to check")).toHaveText(
    "3 (each checked once)",
  );
  await expect(fleet.reviewValue("Rows repeating a vehicle")).toHaveText(/^1 /);
  await expect(
    fleet.reviewValue("Rows with an invalid registration"),
  ).toHaveText("1");
  await expect(page.getByText("Row 3:").locator("..")).toContainText(
    "Registration must only include letters A to Z and numbers 0 to 9",
  );

  await fleet.startButton.click();
  await expect(page).toHaveURL(/\/fleet\/runs\/\w+$/);
  await expect(fleet.finished).toHaveText("Finished: 3 vehicles checked.");
  await expect(fleet.figure("Vehicles", "Not insured")).toHaveText("1");
  await expect(fleet.figure("Vehicles", "Not found")).toHaveText("1");
  await expect(fleet.figure("Vehicles", "Insured")).toHaveText("1");
  await expect(fleet.figure("Your list", "Rows in your list")).toHaveText("5");

  expect((await fleet.visibleRows()).map((cells) => cells.slice(0, 3))).toEqual(
    [
      ["5", "UN51 NSD", "Not insured Never insured"],
      ["2", "ZZ99 ZZZ", "Not found"],
      [
        "3",
        "AB12 CD!",
        "Invalid registration Registration must only include letters A to Z and numbers 0 to 9",
      ],
      ["1", "AB12 CDE", "Insured"],
      ["4", "AB12 CDE", "Insured"],
    ],
  );

  // One bulk request carried each unique registration once.
  await expect
    .poll(
      () =>
        traffic.filter((e) => e.url.endsWith("/api/v1/vehicle/bulk-insurance"))
          .length,
    )
    .toBe(1);
  const sent = traffic.find((e) =>
    e.url.endsWith("/api/v1/vehicle/bulk-insurance"),
  );
  expect(JSON.parse(sent?.requestBody ?? "{}")).toEqual({
    registrations: ["AB12CDE", "ZZ99ZZZ", "UN51NSD"],
  });
});

test("fleet compliance over the reference plates gives each its verdict, from one request", async ({
  page,
  traffic,
}) => {
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste(
    [
      "AB12CDE",
      "MT15EXP",
      "NW25CAR",
      "TX19NON",
      "SR19ORN",
      "FN19OUT",
      "BD19ALL",
    ].join(", "),
  );
  await fleet.complianceOption.check();
  await fleet.startButton.click();
  await expect(fleet.finished).toHaveText("Finished: 7 vehicles checked.");

  const verdicts = Object.fromEntries(
    (await fleet.visibleRows()).map((cells) => [cells[1], cells[3]]),
  );
  expect(verdicts).toEqual({
    "AB12 CDE": "Compliant",
    "MT15 EXP": "Not compliant: MOT",
    "NW25 CAR": "Compliant",
    "TX19 NON": "Not compliant: road tax",
    // SORN says what it means for the vehicle, not only that tax is not paid.
    "SR19 ORN":
      "Not compliant: road tax. SORN: declared off the road, so it must not be driven or parked on a public road",
    "FN19 OUT": "Not compliant: fines",
    "BD19 ALL": "Not compliant: insurance, MOT, road tax, fines",
  });
  await expect(fleet.figure("Compliance", "Not compliant")).toHaveText("5");
  await expect(fleet.figure("Compliance", "Compliant")).toHaveText("2");
  await expect(fleet.figure("Vehicles", "Insured")).toHaveText("6");
  await expect(fleet.figure("Vehicles", "Not insured")).toHaveText("1");

  // One chunk, one request: each vehicle's insurance came with its compliance (decision 021).
  const bulk = traffic.filter((e) => /\/api\/v1\/vehicle\/bulk-/.test(e.url));
  expect(bulk.map((e) => e.url.replace(/^.*\/bulk-/, "bulk-"))).toEqual([
    "bulk-compliance",
  ]);
});

test("an insurance check of a lapsed vehicle says when and with whom its cover ended", async ({
  page,
}) => {
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste("LP08SED\nUN51NSD");
  await fleet.startButton.click();
  await expect(fleet.finished).toHaveText("Finished: 2 vehicles checked.");

  const outcomes = Object.fromEntries(
    (await fleet.visibleRows()).map((cells) => [cells[1], cells[2]]),
  );
  const days = await lp08sedLapsedDaysAgo();
  expect(outcomes).toEqual({
    "LP08 SED": expect.stringMatching(
      new RegExp(
        `^Not insured Lapsed ${days} days ago, on \\d{1,2} [A-Z][a-z]+ \\d{4} \\(Kestrel Direct\\)$`,
      ),
    ),
    "UN51 NSD": "Not insured Never insured",
  });
});

test("a run that meets ER19THR and ER19ERR recovers, and every row ends with one outcome", async ({
  page,
}) => {
  // The run waits out Retry-After and backs off before retries: the browser's clock is
  // installed so those waits can be run on instead of waited for. Each try is still a real
  // request, and on a busy 2-core machine the dozen of them took more than 30 s.
  test.setTimeout(90_000);
  await page.clock.install();
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste("AB12CDE\nER19THR\nUN51NSD\nER19ERR\nZZ99ZZZ\nEX26SON");
  await fleet.startButton.click();
  await expect(page).toHaveURL(/\/fleet\/runs\/\w+$/);
  await expect
    .poll(
      async () => {
        await page.clock.runFor(5_000);
        return fleet.finished.isVisible();
      },
      { timeout: 80_000 },
    )
    .toBe(true);
  await expect(fleet.finished).toHaveText(
    "Finished: 6 vehicles checked. 2 vehicles could not be checked.",
  );
  const outcomes = Object.fromEntries(
    (await fleet.visibleRows()).map((cells) => [cells[1], cells[2]]),
  );
  expect(outcomes).toEqual({
    "UN51 NSD": "Not insured Never insured",
    "EX26 SON": expect.stringMatching(
      /^Insured, expiring soon ends in \d+ days$/,
    ),
    "ZZ99 ZZZ": "Not found",
    "ER19 THR": expect.stringMatching(
      /^Not checked The service refused this vehicle each time it was asked/,
    ),
    "ER19 ERR": expect.stringMatching(/^Not checked /),
    "AB12 CDE": "Insured",
  });
  await expect(
    page.getByRole("button", { name: "Retry the 2 vehicles not checked" }),
  ).toBeVisible();
});

test("several registrations on one pasted line: each its own row, numbered by that line", async ({
  page,
}) => {
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste("AB12CDE, UN51NSD; ZZ99ZZZ\tNOT1!\n\nLP08SED");
  await expect(fleet.reviewValue("Rows")).toHaveText("5");
  await expect(page.getByText("Row 1:").locator("..")).toContainText("NOT1!");
  await fleet.startButton.click();
  await expect(fleet.finished).toHaveText("Finished: 4 vehicles checked.");
  const rows = await fleet.visibleRows();
  expect(rows).toHaveLength(5);
  expect(rows.map((cells) => [cells[0], cells[1]]).sort()).toEqual([
    ["1", "AB12 CDE"],
    ["1", "NOT1!"],
    ["1", "UN51 NSD"],
    ["1", "ZZ99 ZZZ"],
    ["3", "LP08 SED"],
  ]);
});

test("a list pasted from an email: every registration found, what was taken shown, no line lost", async ({
  page,
}) => {
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste(EMAIL_PASTE);
  await expect(fleet.reviewHeading).toBeFocused();
  await expect(fleet.reviewValue("Rows")).toHaveText("35");
  await expect(fleet.reviewValue("Vehicles to check")).toHaveText(
    "30 (each checked once)",
  );
  await expect(
    fleet.reviewValue("Rows with an invalid registration"),
  ).toHaveText("5");
  await fleet.showAllPastedLines.click();
  await expect(fleet.pastedLine(16)).toContainText("FR12 JRE, VW68 DKF");
  await expect(fleet.pastedLine(17)).toContainText("NT64 NMX, BB19 KKV");
  await expect(fleet.pastedLine(26)).toContainText(
    "No registration found: fix or exclude row 26 below",
  );
  for (const [line] of EMAIL_LINES_WITHOUT_PLATES)
    await expect(page.getByText(`Row ${line}:`)).toBeVisible();

  await page
    .getByRole("button", {
      name: "Exclude all 5 rows with an invalid registration",
    })
    .click();
  await fleet.startButton.click();
  await expect(fleet.finished).toHaveText("Finished: 30 vehicles checked.");
  await expect(fleet.figure("Your list", "Rows in your list")).toHaveText("35");
});
