import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { fakeUpstream } from "../testing/upstream.ts";
import { answered, insured } from "../testing/fleet-fixtures.ts";
import { renderFleet, setUpFleetTests } from "../testing/fleet-page.tsx";
import { finishedRun } from "../testing/results.ts";

setUpFleetTests();

// The saved run loads from IndexedDB first; the machine may be busy.
const SLOW = { timeout: 10_000 };

function rowFor(registration: string) {
  const row = within(screen.getByRole("table"))
    .getByRole("link", { name: registration })
    .closest("tr");
  if (!row) throw new Error(`no row for ${registration}`);
  return row;
}

describe("the results' words", () => {
  it("says what SORN means for a vehicle declared off the road", async () => {
    fakeUpstream();
    const run = await finishedRun([
      answered("SO11ORN", insured("SO11ORN").insurance, {
        status: "checked",
        compliant: false,
        checks: {
          insuranceValid: true,
          motValid: true,
          roadTaxPaid: false,
          noOutstandingFines: true,
        },
        details: {
          mot: { status: "valid", expiry: "2027-09-01" },
          tax: { status: "sorn", dueDate: null },
          fines: { count: 0, totalPence: 0 },
        },
      }),
    ]);
    renderFleet(`/fleet/runs/${run.id}`);
    await screen.findByRole("table", {}, SLOW);
    expect(rowFor("SO11 ORN")).toHaveTextContent(
      "SORN: declared off the road, so it must not be driven or parked on a public road",
    );
  });

  it("offers the O/0, I/1 look-alikes of a vehicle not found, as the single check does", async () => {
    fakeUpstream();
    const run = await finishedRun(
      [answered("G053LLB", { status: "not-found" })],
      false,
    );
    renderFleet(`/fleet/runs/${run.id}`);
    await screen.findByRole("table", {}, SLOW);
    const row = rowFor("G053 LLB");
    expect(row).toHaveTextContent(
      /Not found\. Check the letters O and 0, I and 1; try .*GO53 LLB\./,
    );
    expect(
      within(row).getByRole("link", { name: "Check insurance for GO53 LLB" }),
    ).toHaveAttribute("href", "/vehicle/GO53LLB");
  });
});
