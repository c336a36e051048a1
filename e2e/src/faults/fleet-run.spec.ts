// Fault journeys: a fleet run under every upstream fault. Each bulk request gets the proxy's 502
// or 504; the run retries with backoff (the browser's clock is run on, not waited for), then ends
// with every row "not checked" and accounted for, and a retry of just those. Once the upstream
// answers again, that retry gives every row its answer.
import type { Page } from "@playwright/test";
import { fakeOutcome } from "@vics/proxy/testing/fault-upstream";
import { formatRegistration } from "@vics/shared";
import type { RecordedExchange } from "../fixtures.ts";
import { FleetPage } from "../pages/fleet-page.ts";
import { FAULTS, PROXY_ANSWERS, platesWith } from "./fault-cases.ts";
import { expect, test } from "./fault-fixtures.ts";

/** fleet/src/engine/run-tuning.ts: tries of one request before its rows give up. */
const MAX_ATTEMPTS = 4;

const WORDS = {
  insured: "Insured",
  "not-insured": "Not insured",
  "not-found": "Not found",
} as const;

/**
 * Runs the browser's clock on until the run has finished, so its backoff waits (seconds) pass
 * quickly. A second every half second at most: the page's time runs about three times as fast
 * as real time, so while the proxy holds a request for its own 1.5 s timeout the run's 30 s
 * request timeout is never reached, and every try ends as the proxy's answer.
 */
async function runUntilFinished(page: Page, fleet: FleetPage) {
  await expect
    .poll(
      async () => {
        await page.clock.runFor(1_000);
        return fleet.finished.isVisible();
      },
      { timeout: 45_000, intervals: [250, 500] },
    )
    .toBe(true);
}

function bulkExchanges(traffic: RecordedExchange[], operation: string) {
  return traffic.filter((exchange) =>
    exchange.url.endsWith(`/api/v1/vehicle/${operation}`),
  );
}

/** Three insured, one not insured, one unknown: each row's answer differs by plate. */
function fleetList(prefix: string): string[] {
  return [
    ...platesWith("insured", 3, prefix),
    ...platesWith("not-insured", 1, prefix),
    ...platesWith("not-found", 1, prefix),
  ];
}

async function outcomesByPlate(fleet: FleetPage) {
  return Object.fromEntries(
    (await fleet.visibleRows()).map((cells) => [cells[1], cells[2]]),
  );
}

for (const [index, fault] of FAULTS.entries()) {
  const answer = PROXY_ANSWERS[fault];

  test(`fleet run, upstream "${fault}": every row not checked and counted, then Retry answers every row`, async ({
    page,
    faults,
    traffic,
  }) => {
    test.setTimeout(90_000);
    const plates = fleetList(`${"BCDFGHJKLMNPRSTVWXY"[index] ?? "Z"}F`);
    await page.clock.install();
    await faults.upstream.use(fault);

    const fleet = new FleetPage(page);
    await fleet.open();
    await fleet.paste(plates.join("\n"));
    await expect(fleet.reviewValue("Vehicles to check")).toHaveText(
      "5 (each checked once)",
    );
    await fleet.startButton.click();
    await expect(page).toHaveURL(/\/fleet\/runs\/\w+$/);
    await runUntilFinished(page, fleet);

    await expect(fleet.finished).toHaveText(
      "Finished: 5 vehicles checked. 5 vehicles could not be checked.",
    );
    // Every try was the proxy's own answer to this fault, and the run gave up only after all.
    await expect
      .poll(() => bulkExchanges(traffic, "bulk-insurance").map((e) => e.status))
      .toEqual(Array(MAX_ATTEMPTS).fill(answer.status));
    for (const exchange of bulkExchanges(traffic, "bulk-insurance"))
      expect(JSON.parse(exchange.responseBody)).toMatchObject({
        code: answer.code,
        detail: expect.stringMatching(answer.detail),
      });
    // Nothing lost: every row of the list is in the table and in the summary, not checked.
    await expect(fleet.figure("Your list", "Rows in your list")).toHaveText(
      "5",
    );
    await expect(fleet.figure("Vehicles", "Not checked")).toHaveText("5");
    await expect(fleet.figure("Vehicles", "Insured")).toHaveText("0");
    expect(await outcomesByPlate(fleet)).toEqual(
      Object.fromEntries(
        plates.map((plate) => [
          formatRegistration(plate),
          `Not checked The vehicle service did not answer after ${MAX_ATTEMPTS} tries`,
        ]),
      ),
    );
    const retry = page.getByRole("button", {
      name: "Retry the 5 vehicles not checked",
    });
    await expect(retry).toBeVisible();

    await faults.upstream.use("answer");
    await retry.click();
    await expect(fleet.finished).toHaveText("Finished: 5 vehicles checked.");
    await expect(retry).toBeHidden();
    await expect(fleet.figure("Vehicles", "Not checked")).toHaveText("0");
    await expect(fleet.figure("Vehicles", "Insured")).toHaveText("3");
    await expect(fleet.figure("Vehicles", "Not insured")).toHaveText("1");
    await expect(fleet.figure("Vehicles", "Not found")).toHaveText("1");
    await expect(fleet.figure("Your list", "Rows in your list")).toHaveText(
      "5",
    );
    expect(await outcomesByPlate(fleet)).toEqual(
      Object.fromEntries(
        plates.map((plate) => [
          formatRegistration(plate),
          WORDS[fakeOutcome(plate)],
        ]),
      ),
    );
  });
}

test('fleet run with compliance, only bulk compliance "breaks-contract": insurance answered, compliance not checked, then Retry completes it', async ({
  page,
  faults,
  traffic,
}) => {
  test.setTimeout(90_000);
  const compliant = platesWith("insured", 2, "QC");
  const notCompliant = platesWith("not-insured", 1, "QC");
  const plates = [...compliant, ...notCompliant];
  await page.clock.install();
  await faults.upstream.use((call) =>
    call.operation === "bulk-compliance" ? "breaks-contract" : "answer",
  );

  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste(plates.join("\n"));
  await fleet.complianceOption.check();
  await fleet.startButton.click();
  await runUntilFinished(page, fleet);

  await expect(fleet.finished).toHaveText(
    "Finished: 3 vehicles checked. 3 vehicles could not be checked.",
  );
  await expect
    .poll(() => bulkExchanges(traffic, "bulk-compliance").map((e) => e.status))
    .toEqual(Array(MAX_ATTEMPTS).fill(502));
  await expect(fleet.figure("Vehicles", "Insured")).toHaveText("2");
  await expect(fleet.figure("Vehicles", "Not insured")).toHaveText("1");
  await expect(fleet.figure("Compliance", "Compliance not checked")).toHaveText(
    "3",
  );
  const compliance = async () =>
    Object.fromEntries(
      (await fleet.visibleRows()).map((cells) => [cells[1], cells[3]]),
    );
  expect(new Set(Object.values(await compliance()))).toEqual(
    new Set(["Not checked"]),
  );

  const retry = page.getByRole("button", {
    name: "Retry the 3 vehicles not checked",
  });
  await faults.upstream.use("answer");
  await retry.click();
  await expect(fleet.finished).toHaveText("Finished: 3 vehicles checked.");
  await expect(fleet.figure("Compliance", "Compliance not checked")).toHaveText(
    "0",
  );
  await expect(fleet.figure("Compliance", "Compliant")).toHaveText("2");
  await expect(fleet.figure("Compliance", "Not compliant")).toHaveText("1");
  expect(await compliance()).toEqual({
    ...Object.fromEntries(
      compliant.map((plate) => [formatRegistration(plate), "Compliant"]),
    ),
    [formatRegistration(notCompliant[0] ?? "")]: "Not compliant: insurance",
  });
  await expect(fleet.figure("Vehicles", "Insured")).toHaveText("2");
});
