import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { http } from "msw";
import { FLEET_PATHS, WATCH_PATHS, type WatchedVehicle } from "@vics/shared";
import { json } from "../../../testing/api-handlers.ts";
import { captureDownloads } from "../../../testing/downloads.ts";
import { server } from "../../../testing/server.ts";
import {
  fleetSummary,
  lapsedVan,
  motExpiredTruck,
  savedFleet,
  unknownCar,
  vanLapse,
  watchedVehicle,
} from "../testing/watched-fixtures.ts";
import { renderFleet, setUpFleetTests } from "../testing/fleet-page.tsx";

setUpFleetTests();

const SLOW = { timeout: 5000 };

const summary = fleetSummary(4);

const VEHICLES = [watchedVehicle({}), lapsedVan, unknownCar, motExpiredTruck];

/** The fleet and its status; asked with changedSince, `moved`'s vehicles have changes. */
function serveFleet(moved: Record<string, WatchedVehicle["changes"]> = {}) {
  const asked: (string | null)[] = [];
  const fleet = savedFleet(summary, VEHICLES);
  server.use(
    http.get(FLEET_PATHS.fleet(summary.id), () => json(fleet)),
    http.get(WATCH_PATHS.status(summary.id), ({ request }) => {
      const since = new URL(request.url).searchParams.get("changedSince");
      asked.push(since);
      return json({
        checking: false,
        vehicles: VEHICLES.map((vehicle) =>
          since === null
            ? vehicle
            : { ...vehicle, changes: moved[vehicle.registration] ?? [] },
        ),
      });
    }),
    http.get(WATCH_PATHS.vehicleRoute, ({ params }) =>
      json({ registration: params.registration, timeline: [], alerts: [] }),
    ),
  );
  return asked;
}

function registrationsShown(): string[] {
  return within(screen.getByRole("table"))
    .getAllByRole("row")
    .slice(1)
    .map((row) => within(row).getAllByRole("rowheader")[0]?.textContent ?? "");
}

const addressOf = (router: { state: { location: { search: string } } }) =>
  Object.fromEntries(new URLSearchParams(router.state.location.search));

describe("a saved fleet's page", () => {
  it("filters by need of action or status, counting each, searches, and keeps both in the address and across Back", async () => {
    serveFleet();
    const { user, router } = renderFleet("/fleets/fleet-1");
    const show = await screen.findByRole("combobox", { name: "Show" }, SLOW);
    expect(
      within(show)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual([
      "All vehicles (4)",
      "Vehicles that need action (3)",
      "Not insured (1)",
      "Unknown (no answer yet) (1)",
      "Not found (0)",
      "New, not yet on record (0)",
      "Not checked yet (0)",
      "Insured (2)",
    ]);
    // Needing action first: an insured truck with an expired MOT among them.
    expect(registrationsShown()).toEqual([
      "LP08 SED",
      "ER19 ERR",
      "MT15 EXP",
      "AB12 CDE",
    ]);

    await user.selectOptions(show, "needs-action");
    expect(registrationsShown()).toEqual(["LP08 SED", "ER19 ERR", "MT15 EXP"]);
    expect(
      screen.getByText("Showing 3 of 4 vehicles.", { selector: "p[id]" }),
    ).toBeVisible();
    // Read out, as the user asked for it.
    expect(
      screen
        .getAllByRole("status")
        .some((region) => region.textContent === "Showing 3 of 4 vehicles."),
    ).toBe(true);
    await user.type(screen.getByRole("searchbox", { name: "Search" }), "kim");
    await waitFor(() => expect(registrationsShown()).toEqual(["ER19 ERR"]));
    await waitFor(() =>
      expect(addressOf(router)).toEqual({ show: "needs-action", q: "kim" }),
    );

    await user.click(screen.getByRole("link", { name: "ER19 ERR" }));
    await screen.findByRole("heading", { name: "Watched vehicle ER19 ERR" });
    await router.navigate(-1);
    expect(
      await screen.findByRole("combobox", { name: "Show" }, SLOW),
    ).toHaveValue("needs-action");
    expect(screen.getByRole("searchbox", { name: "Search" })).toHaveValue(
      "kim",
    );
    expect(registrationsShown()).toEqual(["ER19 ERR"]);
  }, 20_000);

  it("opens with what a link gives", async () => {
    serveFleet();
    renderFleet("/fleets/fleet-1?show=insured&q=max");
    await screen.findByRole("combobox", { name: "Show" }, SLOW);
    expect(registrationsShown()).toEqual(["MT15 EXP"]);
  });

  it("opens every vehicle for a link it does not know, and says when none match", async () => {
    const asked = serveFleet();
    const { user } = renderFleet(
      "/fleets/fleet-1?show=expiring&since=2026-02-30",
    );
    const show = await screen.findByRole("combobox", { name: "Show" }, SLOW);
    expect(show).toHaveValue("all");
    expect(registrationsShown()).toHaveLength(4);
    expect(asked).toEqual([null]);
    await user.type(
      screen.getByRole("searchbox", { name: "Search" }),
      "nobody",
    );
    expect(
      await screen.findByText(
        "No vehicles match. Choose another filter or clear the search.",
      ),
    ).toBeVisible();
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("shows only what changed since a UK date, each with what moved, and every vehicle again", async () => {
    const asked = serveFleet({
      LP08SED: [vanLapse],
    });
    const { user, router } = renderFleet("/fleets/fleet-1");
    const date = await screen.findByLabelText("Changed since", {}, SLOW);
    await user.click(screen.getByRole("button", { name: "Show what changed" }));
    expect(
      await screen.findByText(/Enter a date, such as 24 11 2026/),
    ).toBeVisible();
    expect(date).toHaveAttribute("aria-invalid", "true");

    await user.type(date, "2026-11-01");
    await user.click(screen.getByRole("button", { name: "Show what changed" }));
    await waitFor(() => expect(registrationsShown()).toEqual(["LP08 SED"]));
    expect(asked).toContain("2026-11-01");
    expect(addressOf(router)).toEqual({ since: "2026-11-01" });
    expect(
      screen.getByText(
        "1 vehicle of 4 changed since 1 November 2026: showing it, those needing action first.",
        { selector: "p[id]" },
      ),
    ).toBeVisible();
    const row = screen.getByRole("row", { name: /LP08 SED/ });
    expect(row).toHaveTextContent(
      "Insurance: from Insured by Northwind Mutual (policy POL-9) until 7 November 2026 to Not insured: no policy on record (seen 8 November 2026 at 06:00)",
    );
    expect(
      screen.getByRole("columnheader", { name: "What changed" }),
    ).toBeVisible();

    await user.click(
      screen.getByRole("button", { name: "Show every vehicle" }),
    );
    await waitFor(() => expect(registrationsShown()).toHaveLength(4));
    expect(addressOf(router)).toEqual({});
    expect(screen.queryByRole("columnheader", { name: "What changed" })).toBe(
      null,
    );
  }, 20_000);

  it("downloads the fleet's status as CSV: every vehicle, or those shown", async () => {
    serveFleet();
    const saved = captureDownloads();
    const { user } = renderFleet("/fleets/fleet-1?show=not-insured");
    await user.click(
      await screen.findByRole("button", { name: "Download CSV" }, SLOW),
    );
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toMatch(
      /^vics-fleet-North depot-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const lines = (await saved[0]!.file.text()).trim().split("\r\n");
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^Registration,Driver,Status,Needs action,/);
    expect(lines[1]).toMatch(
      /^LP08 SED,Lee,Not insured,Yes,.*Not insured: policy POL-9 lapsed on 7 November 2026/,
    );
    expect(
      await screen.findByText("CSV file ready.", {}, SLOW),
    ).toBeInTheDocument();

    await user.click(
      screen.getByRole("radio", { name: "Only the vehicles shown below (1)" }),
    );
    await user.click(screen.getByRole("button", { name: "Download CSV" }));
    await waitFor(() => expect(saved).toHaveLength(2));
    const shown = (await saved[1]!.file.text()).trim().split("\r\n");
    expect(shown.map((line) => line.split(",")[0])).toEqual([
      "Registration",
      "LP08 SED",
    ]);
  }, 20_000);

  it("says so when the fleet is being checked already, in a live region already on the page", async () => {
    serveFleet();
    server.use(
      http.post(WATCH_PATHS.checkNow(summary.id), () =>
        json({ queued: 4, alreadyRunning: true }, 202),
      ),
      // The check that was under way is still going.
      http.get(WATCH_PATHS.status(summary.id), () =>
        json({ checking: true, vehicles: VEHICLES }),
      ),
    );
    const { user } = renderFleet("/fleets/fleet-1");
    const button = await screen.findByRole(
      "button",
      { name: "Check this fleet now" },
      SLOW,
    );
    const regions = screen.getAllByRole("status");
    await user.click(button);
    const words =
      "This fleet is being checked already. Its answers appear here as they arrive.";
    expect(await screen.findByText(words)).toBeVisible();
    expect(regions.some((region) => region.textContent === words)).toBe(true);
  });
});
