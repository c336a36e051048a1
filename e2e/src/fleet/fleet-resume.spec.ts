// A reload in the middle of a 10,000-vehicle run: the page offers to resume, and the run loses no
// row and asks again about no vehicle whose answer it had saved.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "../fixtures.ts";
import { FleetPage } from "../pages/fleet-page.ts";
import { stackEnv } from "../stack-env.ts";
import { seededRegistrations } from "./fleet-data.ts";
import { savedRegistrations, startRunUntilSaved } from "./fleet-store.ts";

const BULK = "**/api/v1/vehicle/bulk-insurance";

/** Resolved once the test has reloaded the page; `done` says whether it has. */
function pageReloaded() {
  const gate = { done: false, resolve: () => {}, promise: Promise.resolve() };
  gate.promise = new Promise<void>((resolve) => {
    gate.resolve = () => {
      gate.done = true;
      resolve();
    };
  });
  return gate;
}

test("reload in the middle of a 10,000-vehicle run, resume: no row lost, nothing saved asked again", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const registrations = await seededRegistrations(10_000);
  // The first three bulk requests go through; the old page's others wait for the reload, so
  // the run is still going then however slow the machine (a hold of 700 ms each could let a
  // loaded machine finish the run first).
  const gone = pageReloaded();
  let requests = 0;
  await page.route(BULK, async (route) => {
    if (++requests > 3) await gone.promise;
    await route.continue().catch(() => undefined); // the page has gone meanwhile
  });
  const sent: Array<{ afterReload: boolean; registrations: string[] }> = [];
  let reloaded = false;
  page.on("request", (request) => {
    if (request.url().endsWith("/api/v1/vehicle/bulk-insurance"))
      sent.push({
        afterReload: reloaded,
        registrations: (
          JSON.parse(request.postData() ?? "{}") as { registrations: string[] }
        ).registrations,
      });
  });

  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste(registrations.join("\n"));
  await expect(fleet.reviewValue("Vehicles to check")).toHaveText(
    "10,000 (each checked once)",
  );
  const runId = await startRunUntilSaved(fleet, 3_000);

  expect((await savedRegistrations(page, runId)).length).toBeLessThan(10_000);
  await page.reload();
  // Only now: a request the old page sent as it went belongs to it, not to the resumed run.
  reloaded = true;
  gone.resolve();

  await expect(
    page.getByRole("heading", {
      name: "This check stopped before it finished",
    }),
  ).toBeVisible();
  // What the run had saved when the page went: read in the new page, before resuming, so it
  // is exactly what the resumed run starts from.
  const savedBefore = new Set(await savedRegistrations(page, runId));
  expect(savedBefore.size).toBeGreaterThanOrEqual(3_000);
  expect(savedBefore.size).toBeLessThan(10_000);
  await fleet.resumeButton.click();
  await expect(fleet.finished).toHaveText(
    "Finished: 10,000 vehicles checked.",
    {
      timeout: 60_000,
    },
  );
  await expect(fleet.figure("Vehicles", "Not checked")).toHaveText("0");

  // Every vehicle has its answer saved; none that was saved before the reload was asked again.
  const savedAfter = new Set(await savedRegistrations(page, runId));
  expect(savedAfter.size).toBe(10_000);
  const askedAgain = sent
    .filter((request) => request.afterReload)
    .flatMap((request) => request.registrations)
    .filter((registration) => savedBefore.has(registration));
  expect(askedAgain).toEqual([]);
  // And after the reload only what was missing went out, each once.
  const afterReload = sent
    .filter((request) => request.afterReload)
    .flatMap((r) => r.registrations);
  expect(new Set(afterReload).size).toBe(afterReload.length);
  expect(afterReload.length).toBe(10_000 - savedBefore.size);
});

/** The service's own log, where every request that reached it (and cost quota) has a line. */
async function serviceLog(): Promise<string> {
  const { dataDir } = await stackEnv();
  return readFileSync(join(dataDir, "logs", "service.log"), "utf8");
}

/** The bulk insurance requests the service answered in the log written after `from`. */
const serviceBulkRequests = (log: string, from: number) =>
  log
    .slice(from)
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter(
      (event) =>
        event.msg === "request" &&
        String(event.route).endsWith("/bulk-insurance"),
    ).length;

test("reload while chunks are with the service, resume: the service is asked once per chunk (decision 028)", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const registrations = await seededRegistrations(10_000);
  const chunks = Math.ceil(registrations.length / 1_000);
  const logFrom = (await serviceLog()).length;
  // Each bulk request reaches the service at once; after the first three, its answer is held
  // from the browser until the reload: the chunks in flight then were counted and their
  // answers lost, however slow the machine.
  const gone = pageReloaded();
  let requests = 0;
  await page.route(BULK, async (route) => {
    const held = ++requests > 3 && !gone.done;
    const response = await route.fetch().catch(() => undefined);
    if (held) await gone.promise;
    if (response) await route.fulfill({ response }).catch(() => undefined);
  });
  const replayed: boolean[] = [];
  page.on("response", (response) => {
    if (response.url().endsWith("/api/v1/vehicle/bulk-insurance"))
      replayed.push(response.headers()["x-vics-replayed"] === "true");
  });

  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste(registrations.join("\n"));
  const runId = await startRunUntilSaved(fleet, 3_000);
  await page.reload();
  gone.resolve();

  await fleet.resumeButton.click();
  await expect(fleet.finished).toHaveText(
    "Finished: 10,000 vehicles checked.",
    { timeout: 60_000 },
  );
  expect(new Set(await savedRegistrations(page, runId)).size).toBe(10_000);
  await expect
    .poll(async () => serviceBulkRequests(await serviceLog(), logFrom))
    .toBe(chunks);
  // The chunks lost at the reload came back from the proxy's memory, not from the service.
  expect(replayed.filter(Boolean).length).toBeGreaterThan(0);
});

test("a second tab sees the run going on in the first, offers no resume, and offers it once the first tab closes", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const registrations = await seededRegistrations(3_000);
  // The first tab's requests get no answer: its run is still going whenever the second looks
  // (a delay would not do: 3,000 vehicles in three requests at once finish with the first).
  await page.route(BULK, () => undefined);
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste(registrations.join("\n"));
  await fleet.startButton.click();
  await expect(page).toHaveURL(/\/fleet\/runs\/\w+$/);
  const runUrl = page.url();
  await expect(fleet.progress).toBeVisible();

  const other = await page.context().newPage();
  const otherFleet = new FleetPage(other);
  await otherFleet.open();
  const previous = other.getByRole("table");
  await expect(previous.getByRole("row").nth(1)).toContainText(
    "Checking in another tab",
  );
  await expect(
    other.getByRole("region", { name: "Unfinished check" }),
  ).toHaveCount(0);
  await other.goto(runUrl);
  await expect(
    other.getByRole("heading", {
      name: "This check is running in another tab or window",
    }),
  ).toBeVisible();
  await expect(otherFleet.resumeButton).toHaveCount(0);

  // The first tab goes: the second may take the run over.
  await page.close();
  await expect(otherFleet.resumeButton).toBeVisible({ timeout: 10_000 });
  await otherFleet.resumeButton.click();
  await expect(otherFleet.finished).toHaveText(
    "Finished: 3,000 vehicles checked.",
    {
      timeout: 30_000,
    },
  );
});
