// Where each row's road tax and MOT facts came from, under its Tax due and MOT due (issue 35).
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import type { FactSources } from "@vics/shared";
import { fakeUpstream } from "../testing/upstream.ts";
import type { VehicleResult } from "../lib/fleet-types.ts";
import { renderFleet, setUpFleetTests } from "../testing/fleet-page.tsx";
import { dueIn, finishedRun } from "../testing/results.ts";

setUpFleetTests();

// Only Date is faked: "today" is 29 November 2026 in the UK, whose clocks are on UTC then.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime("2026-11-29T12:00:00.000Z");
});
afterEach(() => {
  vi.useRealTimers();
});

const SLOW = { timeout: 10_000 };

function withSources(
  registration: string,
  factSources: FactSources | undefined,
): VehicleResult {
  const result = dueIn(registration, { mot: 90, tax: 90 });
  if (result.compliance?.status !== "checked" || !factSources) return result;
  return {
    ...result,
    compliance: {
      ...result.compliance,
      factSources,
      recordsAsOf: { tax: "2026-11-28T06:00:00.000Z" },
    },
  };
}

/** The words of one row's cell under the named column header. */
function cellText(registration: string, column: string): string {
  const table = screen.getByRole("table");
  const headers = within(table)
    .getAllByRole("columnheader")
    .map((header) => header.textContent?.replace(/,.*$/, ""));
  const link = within(table).getByRole("link", { name: registration });
  const row = link.closest("tr") as HTMLElement;
  // The Row and Registration cells are row headers: count the row's cells of both kinds.
  return row.children[headers.indexOf(column)]?.textContent ?? "";
}

describe("a row's sources in the results", () => {
  it("says which register gave tax and MOT and when; a stale fact says it is the stored one; a row without sources is as before", async () => {
    fakeUpstream();
    const run = await finishedRun([
      withSources("LV11AAA", {
        tax: { source: "dvla-ves", asOf: "2026-11-29T10:02:00.000Z" },
        mot: { source: "dvsa-mot-history", asOf: "2026-11-28T09:15:00.000Z" },
      }),
      withSources("ST11AAA", {
        mot: {
          source: "dvsa-mot-history",
          asOf: "2026-11-20T08:00:00.000Z",
          stale: true,
        },
      }),
      withSources("OL11AAA", undefined),
    ]);
    renderFleet(`/fleet/runs/${run.id}`);
    await screen.findByRole("table", {}, SLOW);
    expect(cellText("LV11 AAA", "Tax due")).toMatch(
      /Source: DVLA, 10:02 today$/,
    );
    expect(cellText("LV11 AAA", "MOT due")).toMatch(
      /Source: DVSA, 09:15 yesterday$/,
    );
    expect(cellText("ST11 AAA", "MOT due")).toMatch(
      /Source: DVSA, 20 November 2026 at 08:00 \(stored fact: could not be refreshed\)$/,
    );
    // VICS's own records: the date alone, as every row showed before live registers.
    expect(cellText("ST11 AAA", "Tax due")).toBe("27 February 2027");
    expect(cellText("OL11 AAA", "Tax due")).toBe("27 February 2027");
    expect(cellText("OL11 AAA", "MOT due")).toBe("27 February 2027");
    expect(screen.getByText("DVLA, 10:02 today")).toBeVisible();
  });
});
