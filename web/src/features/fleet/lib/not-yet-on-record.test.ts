// A new vehicle whose policy is not on the record yet is its own outcome in a fleet run, with
// the insurer's deadline in words, not "Never insured" (decision 041).
import { describe, expect, it } from "vitest";
import { exportRows } from "./export/export-table.ts";
import {
  answered,
  fixturePolicy,
  validRow,
} from "../testing/fleet-fixtures.ts";
import type { InsuranceOutcome } from "./fleet-types.ts";
import { outcomeDetail } from "./result-words.ts";
import { buildResultRows, needsAction } from "./results-view.ts";
import { summariseRun } from "./run-summary.ts";

const TODAY = "2026-11-24";
const vehicle = (firstRegistered: string) => ({
  make: "Kia",
  model: "Niro",
  year: 2026,
  color: "White",
  firstRegistered,
});

function entryFor(insurance: InsuranceOutcome) {
  const rows = [validRow(2, "NW26NEW")];
  const results = new Map([["NW26NEW", answered("NW26NEW", insurance)]]);
  const [entry] = buildResultRows(rows, results, TODAY);
  if (!entry) throw new Error("No result row");
  return { entry, rows, results };
}

describe("a new vehicle with no policy on record", () => {
  it.each([
    ["registered today", "2026-11-24", "not-yet-on-record"],
    ["registered 14 days ago", "2026-11-10", "not-yet-on-record"],
    ["registered 15 days ago", "2026-11-09", "not-insured"],
  ] as const)("%s: %s", (_when, firstRegistered, outcome) => {
    const { entry } = entryFor({
      status: "not-insured",
      lastPolicy: null,
      vehicle: vehicle(firstRegistered),
    });
    expect(entry.outcome).toBe(outcome);
  });

  it("is never 'not yet on record' when a policy has been on record, or the service did not say", () => {
    expect(
      entryFor({
        status: "not-insured",
        lastPolicy: fixturePolicy("2026-11-20", "Acorn Mutual"),
        vehicle: vehicle("2026-11-20"),
      }).entry.outcome,
    ).toBe("not-insured");
    expect(
      entryFor({ status: "not-insured", vehicle: vehicle("2026-11-20") }).entry
        .outcome,
    ).toBe("not-insured");
  });

  it("says when the insurer's time runs out, counts apart, and still asks for action", () => {
    const { entry, rows, results } = entryFor({
      status: "not-insured",
      lastPolicy: null,
      vehicle: vehicle("2026-11-20"),
    });
    expect(outcomeDetail(entry, TODAY)).toBe(
      "First registered on 20 November 2026: its insurer has until 4 December 2026 to put the policy on the record",
    );
    expect(needsAction(entry)).toBe(true);
    expect(summariseRun([entry], false).vehicles).toMatchObject({
      "not-yet-on-record": 1,
      "not-insured": 0,
    });
    const [cells] = exportRows(
      rows,
      results,
      { extraColumns: [], checkCompliance: false },
      TODAY,
    );
    expect(cells).toContain("Not yet on record");
    // A file's dates are YYYY-MM-DD, as the rest of the export's.
    expect(cells?.join(" ")).toContain(
      "First registered on 2026-11-20: its insurer has until 2026-12-04",
    );
  });
});
