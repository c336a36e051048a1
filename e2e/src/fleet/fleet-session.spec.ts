// A fleet run and the person's session: the session ends in the middle of a run, which pauses
// with "Sign in again to continue" and, after signing in, goes on with no row lost or asked
// twice; and signing out says first that it removes the saved runs, then does.
import { AUTH_PATHS, CLIENT_HEADER } from "@vics/shared";
import { createStaffUser, proxyStorePath } from "../auth/sign-in.ts";
import { expect, test } from "../fixtures.ts";
import { FleetPage } from "../pages/fleet-page.ts";
import { stackEnv } from "../stack-env.ts";
import { seededRegistrations } from "./fleet-data.ts";
import { savedRegistrations, startRunUntilSaved } from "./fleet-store.ts";

const BULK = "**/api/v1/vehicle/bulk-insurance";

test.use({ signedInAs: null });

async function fleetUser() {
  const { baseUrl, dataDir } = await stackEnv();
  return createStaffUser(baseUrl, proxyStorePath(dataDir), "fleet");
}

test("the session ends in the middle of a run: it pauses, and after signing in it goes on, no row lost or asked twice", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const person = await fleetUser();
  await page.context().addCookies([{ ...person.session, url: baseURL! }]);
  const registrations = await seededRegistrations(5_000);
  // The first bulk request goes through; the others wait until the session has ended on the
  // server, so the run is still going then however slow the machine (a hold of 600 ms each
  // once let a loaded machine finish the run before the sign-out reached the proxy).
  let endSession!: () => void;
  const sessionEnded = new Promise<void>((resolve) => (endSession = resolve));
  let requests = 0;
  await page.route(BULK, async (route) => {
    if (++requests > 1) await sessionEnded;
    await route.continue().catch(() => undefined);
  });
  const answered: string[] = [];
  page.on("response", async (response) => {
    if (!response.url().endsWith("/api/v1/vehicle/bulk-insurance")) return;
    if (response.status() !== 200) return;
    const body = JSON.parse(response.request().postData() ?? "{}") as {
      registrations: string[];
    };
    answered.push(...body.registrations);
  });

  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste(registrations.join("\n"));
  const runId = await startRunUntilSaved(fleet, 1_000);

  // Signed out of every session from elsewhere: this browser's session ends on the server.
  const ended = await fetch(new URL(AUTH_PATHS.signOutEverywhere, baseURL), {
    method: "POST",
    headers: {
      [CLIENT_HEADER]: "e2e",
      Cookie: `${person.session.name}=${person.session.value}`,
    },
  });
  expect(ended.status).toBe(204);
  endSession();
  await expect(page.getByText("Sign in again to continue.")).toBeVisible({
    timeout: 30_000,
  });
  const savedAtPause = (await savedRegistrations(page, runId)).length;
  expect(savedAtPause).toBeLessThan(5_000);

  await page.getByRole("link", { name: "Sign in again" }).click();
  await page.getByLabel("Email address").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/fleet/runs/${runId}$`));
  await expect(fleet.finished).toHaveText("Finished: 5,000 vehicles checked.", {
    timeout: 60_000,
  });
  await expect(fleet.figure("Vehicles", "Not checked")).toHaveText("0");
  expect((await savedRegistrations(page, runId)).length).toBe(5_000);
  // Every vehicle was answered once: none lost, none asked again after the pause.
  expect(answered).toHaveLength(5_000);
  expect(new Set(answered).size).toBe(5_000);
});

test("signing out says first that it removes this browser's saved runs, then removes them", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const person = await fleetUser();
  await page.context().addCookies([{ ...person.session, url: baseURL! }]);
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.paste((await seededRegistrations(20)).join("\n"));
  await fleet.startButton.click();
  await expect(fleet.finished).toHaveText("Finished: 20 vehicles checked.");
  const runId = page.url().split("/").at(-1) ?? "";
  expect(await savedRegistrations(page, runId)).toHaveLength(20);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign out" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText(
    "so that the next person to use it cannot see them",
  );
  await page.getByRole("button", { name: /Sign out and remove/ }).click();
  await expect(
    page.getByRole("heading", { name: "Sign in to VICS" }),
  ).toBeVisible();
  expect(await savedRegistrations(page, runId)).toHaveLength(0);

  // Signed in again on this browser, the run is not there any more.
  await page.getByLabel("Email address").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.goto(`/fleet/runs/${runId}`);
  await expect(fleet.finished).toHaveCount(0);
});
