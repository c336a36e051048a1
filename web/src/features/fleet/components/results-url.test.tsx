import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeUpstream } from "../testing/upstream.ts";
import { answered, insured } from "../testing/fleet-fixtures.ts";
import { renderFleet, setUpFleetTests } from "../testing/fleet-page.tsx";
import { finishedRun } from "../testing/results.ts";

setUpFleetTests();

// The saved run loads from IndexedDB first; the machine may be busy.
const SLOW = { timeout: 10_000 };

function threeVehicles() {
  return finishedRun(
    [
      insured("AB12CDE", "2027-06-30", "Acorn Mutual"),
      answered("UN51NSD", { status: "not-insured" }),
      insured("ZX70ABC", "2027-06-30", "Beacon"),
    ],
    false,
  );
}

function registrationsShown(): string[] {
  return within(screen.getByRole("table"))
    .getAllByRole("row")
    .slice(1)
    .map((row) => within(row).getAllByRole("cell")[0]?.textContent ?? "");
}

describe("the results' filter, search and sort in the address", () => {
  it("opens with the filter, search and sort a link gives", async () => {
    fakeUpstream();
    const run = await threeVehicles();
    renderFleet(
      `/fleet/runs/${run.id}?show=insured&sort=registration&dir=descending`,
    );
    const show = await screen.findByRole("combobox", { name: "Show" }, SLOW);
    expect(show).toHaveDisplayValue("Insured");
    expect(registrationsShown()).toEqual(["ZX70 ABC", "AB12 CDE"]);
    expect(
      screen.getByRole("columnheader", { name: /^Registration/ }),
    ).toHaveAttribute("aria-sort", "descending");
  });

  it("opens with the search a link gives", async () => {
    fakeUpstream();
    const run = await threeVehicles();
    renderFleet(`/fleet/runs/${run.id}?q=beacon`);
    expect(
      await screen.findByRole("searchbox", { name: "Search" }, SLOW),
    ).toHaveValue("beacon");
    expect(registrationsShown()).toEqual(["ZX70 ABC"]);
  });

  it("keeps what the user chose in the address, so a reload or a shared link keeps it", async () => {
    fakeUpstream();
    const run = await threeVehicles();
    const { user, router } = renderFleet(`/fleet/runs/${run.id}`);
    const show = await screen.findByRole("combobox", { name: "Show" }, SLOW);
    await user.selectOptions(show, "Insured");
    await user.type(screen.getByRole("searchbox", { name: "Search" }), "acorn");
    await user.click(screen.getByRole("button", { name: /^Insurer/ }));
    await waitFor(() => {
      const params = new URLSearchParams(router.state.location.search);
      expect(Object.fromEntries(params)).toEqual({
        show: "insured",
        q: "acorn",
        sort: "insurer",
        dir: "ascending",
      });
    });
  });

  it("falls back to the defaults for what it does not know", async () => {
    fakeUpstream();
    const run = await threeVehicles();
    renderFleet(
      `/fleet/runs/${run.id}?show=failing-motValid&sort=colour&dir=sideways`,
    );
    const show = await screen.findByRole("combobox", { name: "Show" }, SLOW);
    // "Failing MOT" means nothing in a run that did not check compliance.
    expect(show).toHaveDisplayValue("All rows");
    expect(
      screen.getByText("Showing all 3 rows, those needing action first."),
    ).toBeVisible();
    expect(registrationsShown()[0]).toBe("UN51 NSD");
  });
});
