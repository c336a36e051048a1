import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { http } from "msw";
import { FLEET_PATHS, WATCH_PATHS, type WatchedVehicle } from "@vics/shared";
import { json } from "../../../testing/api-handlers.ts";
import { captureDownloads } from "../../../testing/downloads.ts";
import { server } from "../../../testing/server.ts";
import {
  fleetSummary,
  lapsedVan,
  savedFleet,
  watchedVehicle,
} from "../testing/watched-fixtures.ts";
import { renderFleet, setUpFleetTests } from "../testing/fleet-page.tsx";

setUpFleetTests();

const SLOW = { timeout: 5000 };

/** 449 insured vehicles, AA0000 to AA0448, and the lapsed van: 450 in all. */
const MANY: WatchedVehicle[] = [
  lapsedVan,
  ...Array.from({ length: 449 }, (_, index) =>
    watchedVehicle({ registration: `AA${String(index).padStart(4, "0")}` }),
  ),
];

function serveFleet(vehicles: readonly WatchedVehicle[]) {
  const summary = fleetSummary(vehicles.length);
  server.use(
    http.get(FLEET_PATHS.fleet(summary.id), () =>
      json(savedFleet(summary, vehicles)),
    ),
    http.get(WATCH_PATHS.status(summary.id), () =>
      json({ vehicles, checking: false }),
    ),
  );
}

/** The rows drawn, counted without role queries, which are slow over hundreds of rows. */
const rowsDrawn = () => document.querySelectorAll("tbody tr").length;

describe("a saved fleet's page with many vehicles", () => {
  it("draws 200 rows at a time, shows more on request, and starts again at 200 for another filter", async () => {
    serveFleet(MANY);
    const { user } = renderFleet("/fleets/fleet-1");
    const more = await screen.findByRole(
      "button",
      { name: "Show 200 more" },
      SLOW,
    );
    expect(rowsDrawn()).toBe(200);
    expect(screen.getByText("Showing 200 of 450 vehicles")).toBeVisible();
    // Needing action first, still.
    expect(document.querySelector("tbody tr")).toHaveTextContent("LP08 SED");

    await user.click(more);
    expect(rowsDrawn()).toBe(400);
    expect(screen.getByText("Showing 400 of 450 vehicles")).toBeVisible();
    // The user carries on from the first row just drawn.
    expect(screen.getByRole("link", { name: "AA 0199" })).toHaveFocus();
    expect(
      screen
        .getAllByRole("status")
        .some(
          (region) => region.textContent === "Showing 400 of 450 vehicles.",
        ),
    ).toBe(true);

    await user.click(
      screen.getByRole("button", { name: "Show the remaining 50" }),
    );
    expect(rowsDrawn()).toBe(450);
    expect(screen.getByText("Showing 450 of 450 vehicles")).toBeVisible();
    expect(screen.getByRole("link", { name: "AA 0399" })).toHaveFocus();
    expect(
      screen.queryByRole("button", { name: /^Show (\d+ more|the remaining)/ }),
    ).toBeNull();

    await user.selectOptions(
      screen.getByRole("combobox", { name: "Show" }),
      "insured",
    );
    await waitFor(() => expect(rowsDrawn()).toBe(200));
    expect(screen.getByText("Showing 200 of 449 vehicles")).toBeVisible();
    expect(screen.getByRole("button", { name: "Show 200 more" })).toBeVisible();
  }, 30_000);

  it("downloads every vehicle, not only the rows drawn", async () => {
    serveFleet(MANY);
    const saved = captureDownloads();
    const { user } = renderFleet("/fleets/fleet-1");
    await user.click(
      await screen.findByRole("button", { name: "Download CSV" }, SLOW),
    );
    await waitFor(() => expect(saved).toHaveLength(1));
    const lines = (await saved[0]!.file.text()).trim().split("\r\n");
    expect(lines).toHaveLength(451);

    await user.click(
      screen.getByRole("radio", { name: /^Only the vehicles shown below/ }),
    );
    await user.click(screen.getByRole("button", { name: "Download CSV" }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect((await saved[1]!.file.text()).trim().split("\r\n")).toHaveLength(
      451,
    );
  }, 30_000);

  it("has neither the count nor the button for a fleet of 200 or fewer", async () => {
    serveFleet(MANY.slice(0, 200));
    renderFleet("/fleets/fleet-1");
    await screen.findByRole("combobox", { name: "Show" }, SLOW);
    expect(rowsDrawn()).toBe(200);
    expect(screen.queryByText(/^Showing 200 of/)).toBeNull();
    expect(screen.queryByRole("button", { name: /more|remaining/ })).toBeNull();
  }, 30_000);
});
