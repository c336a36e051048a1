import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import { http } from "msw";
import { FLEET_PATHS, type FleetSummary, type SessionUser } from "@vics/shared";
import { json } from "../../../testing/api-handlers.ts";
import { userWithRole } from "../../../testing/auth-fixtures.ts";
import { server } from "../../../testing/server.ts";
import { SessionUserContext } from "../../../lib/session-user.ts";
import { draftFor } from "../lib/list-draft.ts";
import {
  fleetStore,
  renderFleet,
  setUpFleetTests,
} from "../testing/fleet-page.tsx";
import { ListReview } from "./list-review.tsx";

setUpFleetTests();

const SLOW = { timeout: 5000 };

const CSV = [
  "Fleet number,Driver,Reg no,Depot",
  "F001,Sam Taylor,AB12 CDE,Leeds",
  "F002,Alex Morgan,UN51NSD,Bristol",
  "F003,Sam Taylor,AB12CDE,York",
  "F004,Kim Fox,??,Hull",
].join("\r\n");

const saved: FleetSummary = {
  id: "fleet-9",
  name: "depot-list",
  vehicleCount: 2,
  columns: ["Fleet number", "Driver", "Depot"],
  version: 1,
  created: { at: "2026-11-27T09:00:00.000Z", by: "sam.taylor@example.org" },
  updated: { at: "2026-11-27T09:00:00.000Z", by: "sam.taylor@example.org" },
};

/** The review step alone, for `user`. */
function reviewAs(user: SessionUser) {
  const draft = draftFor({
    source: "Pasted list",
    header: null,
    rows: [{ line: 1, cells: ["AB12CDE"] }],
    columnCount: 1,
  });
  return render(
    <SessionUserContext value={{ user, ended: false }}>
      <ListReview
        draft={draft}
        onColumn={vi.fn()}
        onRows={vi.fn()}
        onBack={vi.fn()}
        onStart={vi.fn()}
        starting={false}
      />
    </SessionUserContext>,
  );
}

describe("fleet check: saving a list as a fleet without checking it", () => {
  it("saves each valid vehicle once, with its cells per column, and links to the fleet", async () => {
    let body: unknown;
    server.use(
      http.post(FLEET_PATHS.fleets, async ({ request }) => {
        body = await request.json();
        return json(saved, 201);
      }),
    );
    const { user, router } = renderFleet("/fleet");
    await user.upload(
      await screen.findByLabelText("Upload a file", {}, SLOW),
      new File([CSV], "depot-list.csv", { type: "text/csv" }),
    );
    await screen.findByRole("heading", { name: "Check your list" }, SLOW);

    await user.click(
      screen.getByText("Save as a watched fleet without checking"),
    );
    expect(
      screen.getByText(
        /^Save 2 vehicles, with your columns \(Fleet number, Driver, Depot\), as one of your team’s fleets without checking them now/,
      ),
    ).toBeVisible();
    expect(
      screen.getByText(
        "2 rows are left out (no valid registration, excluded, or repeating a vehicle).",
      ),
    ).toBeVisible();
    expect(screen.getByRole("textbox", { name: "Fleet name" })).toHaveValue(
      "depot-list",
    );
    const regions = screen.getAllByRole("status");
    await user.click(screen.getByRole("button", { name: "Save as a fleet" }));

    expect(
      await screen.findByRole("link", { name: "depot-list" }),
    ).toHaveAttribute("href", "/fleets/fleet-9");
    // Said in a live region that was there before it.
    expect(
      regions.some((region) =>
        region.textContent?.startsWith(
          "Saved 2 vehicles as the fleet depot-list; 1 invalid row was left out (row 5).",
        ),
      ),
    ).toBe(true);
    expect(body).toEqual({
      name: "depot-list",
      columns: ["Fleet number", "Driver", "Depot"],
      vehicles: [
        { registration: "AB12CDE", cells: ["F001", "Sam Taylor", "Leeds"] },
        { registration: "UN51NSD", cells: ["F002", "Alex Morgan", "Bristol"] },
      ],
    });
    // Nothing was checked: the list is still under review, and no run was made.
    expect(router.state.location.pathname).toBe("/fleet");
    expect(
      screen.getByRole("heading", { name: "Check your list" }),
    ).toBeVisible();
    expect(await (await fleetStore()).listRuns()).toEqual([]);
  }, 20_000);

  it("is offered to a fleet user, and not to staff", () => {
    const fleetUser = reviewAs(userWithRole("fleet"));
    expect(
      screen.getByText("Save as a watched fleet without checking"),
    ).toBeInTheDocument();
    fleetUser.unmount();

    reviewAs(userWithRole("staff"));
    expect(
      screen.getByRole("heading", { name: "Check your list" }),
    ).toBeVisible();
    expect(
      screen.queryByText("Save as a watched fleet without checking"),
    ).not.toBeInTheDocument();
  });
});
