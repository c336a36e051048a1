import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatDateTime } from "../../../lib/dates.ts";
import { SessionUserContext } from "../../../lib/session-user.ts";
import { userFixture } from "../../../testing/auth-fixtures.ts";
import { RESULTS, ROWS, RUN, TODAY } from "../lib/export/export-test-run.ts";
import type { SavedRun } from "../lib/fleet-types.ts";
import { ExportControls } from "./export-controls.tsx";
import { FleetReport } from "./fleet-report.tsx";

const SAVED: SavedRun = {
  ...RUN,
  id: "run-1",
  name: "fleet.xlsx",
  createdAt: "2026-11-23T09:00:00.000Z",
  updatedAt: "2026-11-23T09:05:00.000Z",
  status: "finished",
  registrationColumn: "Registration",
  rows: ROWS,
};

/** The record's head, as printed: "Checked by" and its value, each row's words. */
function printedHead(): Record<string, string | undefined> {
  const head = document.querySelector(".fleet-report .printed-by")!;
  return Object.fromEntries(
    [...head.querySelectorAll("dt")].map((dt) => [
      dt.textContent,
      dt.nextElementSibling?.textContent,
    ]),
  );
}

const signedIn = (children: ReactNode) => (
  <SessionUserContext.Provider
    value={{
      user: userFixture({ name: "Priya Shah", email: "priya@example.org" }),
      ended: false,
    }}
  >
    {children}
  </SessionUserContext.Provider>
);

afterEach(() => {
  vi.useRealTimers();
});

describe("FleetReport", () => {
  it("titles the report with the list's name, who ran it, when, and when it was printed, then the counts", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime("2026-11-24T16:30:00.000Z");
    render(
      signedIn(<FleetReport run={SAVED} results={RESULTS} today={TODAY} />),
    );
    expect(
      screen.getByRole("heading", {
        level: 1,
        name: "Fleet check report: fleet.xlsx",
      }),
    ).toBeInTheDocument();
    expect(printedHead()).toEqual({
      "Checked by": "Priya Shah (priya@example.org)",
      "Checked on": formatDateTime("2026-11-23T09:00:00.000Z"),
      "Printed on": formatDateTime("2026-11-24T16:30:00.000Z"),
    });
    const vehicles = screen.getByRole("heading", { name: "Vehicles" })
      .nextElementSibling as HTMLElement;
    expect(
      within(vehicles).getByText("Not insured").nextElementSibling,
    ).toHaveTextContent("1");
    expect(
      within(vehicles).getByText("Vehicles checked").nextElementSibling,
    ).toHaveTextContent("7");
  });

  it("lists the vehicles that need action, worst first, with the user's columns and the reason", () => {
    render(<FleetReport run={SAVED} results={RESULTS} today={TODAY} />);
    const table = screen.getByRole("table", {
      name: "Vehicles that need action",
    });
    const [head, ...rows] = within(table).getAllByRole("row");
    expect(
      within(head!)
        .getAllByRole("columnheader")
        .map((cell) => cell.textContent),
    ).toEqual([
      "Outcome",
      "Registration",
      "Row",
      "Fleet number",
      "Make (your list)",
      "Joined",
      "Reason",
    ]);
    const cells = rows.map((row) =>
      within(row)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    );
    expect(cells[0]).toEqual([
      "Not insured",
      "UN51 NSD",
      "4",
      "007",
      "",
      "1 March 2024",
      "No insurance found for this vehicle",
    ]);
    expect(cells[1]).toEqual([
      "Insured, expiring soon",
      "EX26 SON",
      "3",
      '=HYPERLINK("http://x")',
      "Ford",
      "",
      "Cover ends in 10 days, on 3 December 2026",
    ]);
    expect(cells.map((row) => row[2])).toEqual(["4", "3", "5", "6", "7", "12"]);
    // Insured, excluded and unanswered rows need nothing of the manager.
    expect(cells.map((row) => row[0])).not.toContain("Insured");
    expect(cells.map((row) => row[0])).not.toContain("Excluded");
  });
});

describe("Print report", () => {
  it("puts the report on the page for printing and opens the browser's print", async () => {
    const print = vi.spyOn(window, "print").mockImplementation(() => {});
    render(
      signedIn(
        <ExportControls
          run={SAVED}
          results={RESULTS}
          shownRows={ROWS}
          today={TODAY}
        />,
      ),
    );
    expect(
      screen.queryByRole("heading", { name: /^Fleet check report/ }),
    ).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Print report" }));
    expect(print).toHaveBeenCalledTimes(1);
    expect(document.querySelector(".fleet-report h1")).toHaveTextContent(
      "Fleet check report: fleet.xlsx",
    );
    expect(printedHead()["Checked by"]).toBe("Priya Shah (priya@example.org)");
  });
});
