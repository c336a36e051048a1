import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { fakeUpstream } from "../testing/upstream.ts";
import { renderFleet, setUpFleetTests } from "../testing/fleet-page.tsx";
import { dueIn, finishedRun } from "../testing/results.ts";

setUpFleetTests();

// The saved run loads from IndexedDB first; the machine may be busy.
const SLOW = { timeout: 10_000 };

function rowFor(registration: string) {
  const cell = within(screen.getByRole("table")).getByRole("link", {
    name: registration,
  });
  const row = cell.closest("tr");
  if (!row) throw new Error(`no row for ${registration}`);
  return row;
}

describe("MOT and road tax in the results", () => {
  it("shows MOT due and Tax due beside Cover ends, flagged when within 30 days", async () => {
    fakeUpstream();
    const run = await finishedRun([
      dueIn("MO11TDU", { mot: 12, tax: 90 }),
      dueIn("TA11XDU", { mot: 90, tax: 1 }),
    ]);
    renderFleet(`/fleet/runs/${run.id}`);
    const table = await screen.findByRole("table", {}, SLOW);
    const headers = within(table)
      .getAllByRole("columnheader")
      .map((header) => header.textContent?.replace(/,.*$/, ""));
    const cover = headers.indexOf("Cover ends");
    expect(headers.slice(cover, cover + 3)).toEqual([
      "Cover ends",
      "MOT due",
      "Tax due",
    ]);
    expect(rowFor("MO11 TDU")).toHaveTextContent(/MOT due in 12 days/);
    expect(rowFor("MO11 TDU")).not.toHaveTextContent(/Tax due in/);
    expect(rowFor("TA11 XDU")).toHaveTextContent(/Tax due tomorrow/);
  });

  it("offers filters for MOT, tax, and anything due within 30 days", async () => {
    fakeUpstream();
    const run = await finishedRun([
      dueIn("MO11TDU", { mot: 12, tax: 90 }),
      dueIn("TA11XDU", { mot: 90, tax: 1 }),
      dueIn("AA11AAA", { mot: 90, tax: 90 }),
    ]);
    const { user } = renderFleet(`/fleet/runs/${run.id}`);
    const show = await screen.findByRole("combobox", { name: "Show" }, SLOW);
    await user.selectOptions(show, "MOT due within 30 days");
    expect(
      await screen.findByRole("region", { name: "Showing 1 of 3 rows." }),
    ).toBeVisible();
    await user.selectOptions(show, "Anything due within 30 days");
    expect(
      screen.getByRole("region", { name: "Showing 2 of 3 rows." }),
    ).toBeVisible();
    await user.selectOptions(show, "Tax due within 30 days");
    expect(
      screen.getByRole("region", { name: "Showing 1 of 3 rows." }),
    ).toBeVisible();
    expect(screen.getByRole("table")).toHaveTextContent("TA11 XDU");
  });

  it("counts the vehicles whose MOT or road tax falls due in the summary, and shows them", async () => {
    fakeUpstream();
    const run = await finishedRun([
      dueIn("MO11TDU", { mot: 12, tax: 90 }),
      dueIn("MO22TDU", { mot: 30, tax: 2 }),
      dueIn("AA11AAA", { mot: 90, tax: 90 }),
    ]);
    const { user } = renderFleet(`/fleet/runs/${run.id}`);
    const summary = await screen.findByRole(
      "region",
      { name: "Summary" },
      SLOW,
    );
    const figure = (label: string) =>
      within(summary).getByText(label).nextElementSibling;
    expect(figure("MOT due within 30 days")).toHaveTextContent(/^2/);
    expect(figure("Tax due within 30 days")).toHaveTextContent(/^1/);
    await user.click(
      within(summary).getByRole("button", {
        name: "Show rows: MOT due within 30 days",
      }),
    );
    expect(
      screen.getByRole("region", { name: "Showing 2 of 3 rows." }),
    ).toBeVisible();
  });
});
