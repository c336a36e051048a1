import { describe, expect, it } from "vitest";
import type { SavedRun, VehicleResult } from "../fleet-types.ts";
import { planRun, uniqueRegistrations } from "./run-plan.ts";

const run = (checkCompliance: boolean): SavedRun => ({
  id: "r",
  name: "Fleet.csv",
  createdAt: "2026-01-05T09:00:00.000Z",
  updatedAt: "2026-01-05T09:00:00.000Z",
  status: "running",
  checkCompliance,
  registrationColumn: null,
  extraColumns: [],
  rows: [
    { line: 1, submitted: "A1", extra: [], registration: "A1" },
    { line: 2, submitted: "B2", extra: [], registration: "B2" },
    { line: 3, submitted: "a1", extra: [], registration: "A1" },
    {
      line: 4,
      submitted: "??",
      extra: [],
      invalid: { reason: "Not a registration", suggestions: [] },
    },
    { line: 5, submitted: "C3", extra: [], registration: "C3", excluded: true },
    { line: 6, submitted: "D4", extra: [], registration: "D4" },
  ],
});

const result = (
  registration: string,
  withCompliance: boolean,
): VehicleResult => ({
  registration,
  insurance: { status: "not-checked", reason: "No answer" },
  ...(withCompliance ? { compliance: { status: "not-found" } } : {}),
  checkedAt: "2026-01-05T09:00:00.000Z",
});

describe("planRun", () => {
  it("takes each valid, kept registration once, in the order of the list", () => {
    expect(uniqueRegistrations(run(false).rows)).toEqual(["A1", "B2", "D4"]);
  });

  it("leaves out registrations with a final saved result, counting them as done", () => {
    const results = new Map([["B2", result("B2", false)]]);
    expect(planRun(run(false), results)).toEqual({
      registrations: ["A1", "D4"],
      total: 3,
      done: 1,
      notChecked: 1,
    });
  });

  it("asks again for a result without the compliance part a compliance run needs", () => {
    const results = new Map([
      ["A1", result("A1", false)],
      ["B2", result("B2", true)],
    ]);
    expect(planRun(run(true), results).registrations).toEqual(["A1", "D4"]);
  });

  it("retries exactly the registrations given, each once", () => {
    const results = new Map([["B2", result("B2", false)]]);
    expect(planRun(run(false), results, ["B2", "B2", "D4"])).toEqual({
      registrations: ["B2", "D4"],
      total: 2,
      done: 0,
      notChecked: 0,
    });
  });
});
