import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { fakeUpstream } from "../lib/engine/test-upstream.ts";
import { answered, insured } from "../lib/fleet-fixtures.ts";
import { renderFleet, setUpFleetTests } from "./fleet-test-support.tsx";
import { finishedRun } from "./results-test-support.ts";

setUpFleetTests();

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
    await screen.findByRole("table");
    expect(rowFor("SO11 ORN")).toHaveTextContent(
      "SORN: declared off the road, so it must not be driven or parked on a public road",
    );
  });
});
