import { describe, expect, it } from "vitest";
import {
  answered,
  fixturePolicy,
  validRow,
} from "../testing/fleet-fixtures.ts";
import type { InsuranceOutcome } from "./fleet-types.ts";
import { buildResultRows } from "./results-view.ts";
import { outcomeDetail } from "./result-words.ts";

const TODAY = "2026-11-24";

function detailFor(insurance: InsuranceOutcome, today?: string): string {
  const rows = [validRow(2, "LP08SED")];
  const results = new Map([["LP08SED", answered("LP08SED", insurance)]]);
  const [entry] = buildResultRows(rows, results, TODAY);
  if (!entry) throw new Error("No result row");
  return outcomeDetail(entry, today);
}

describe("outcomeDetail for a vehicle that is not insured", () => {
  it("says when the last policy lapsed, on which date, with which insurer", () => {
    const lastPolicy = fixturePolicy("2026-11-04", "Kestrel Direct");
    expect(detailFor({ status: "not-insured", lastPolicy }, TODAY)).toBe(
      "Lapsed 20 days ago, on 4 November 2026 (Kestrel Direct)",
    );
  });

  it("says 'yesterday' for cover that ended the day before", () => {
    const lastPolicy = fixturePolicy("2026-11-23", "Acorn Mutual");
    expect(detailFor({ status: "not-insured", lastPolicy }, TODAY)).toBe(
      "Lapsed yesterday, on 23 November 2026 (Acorn Mutual)",
    );
  });

  it("gives the date alone when today is not known", () => {
    const lastPolicy = fixturePolicy("2026-11-04", "Kestrel Direct");
    expect(detailFor({ status: "not-insured", lastPolicy })).toBe(
      "Lapsed on 4 November 2026 (Kestrel Direct)",
    );
  });

  it("says 'Never insured' when the service knows of no policy that ended", () => {
    expect(detailFor({ status: "not-insured", lastPolicy: null }, TODAY)).toBe(
      "Never insured",
    );
  });

  it("claims nothing when the service did not say (an upstream without the extension)", () => {
    expect(detailFor({ status: "not-insured" }, TODAY)).toBe("");
  });
});
