import { describe, expect, it } from "vitest";
import type { FuzzReport } from "@vics/shared/testing/fuzz";
import { fuzzTable } from "./fuzz-table.ts";

const report = (overrides: Partial<FuzzReport>): FuzzReport => ({
  property: "proxy: routes",
  requestedRuns: 1000,
  cases: 1000,
  interrupted: false,
  timeLimitMs: null,
  seed: 42,
  durationMs: 2500,
  outcomes: {},
  samples: [],
  failure: null,
  ...overrides,
});

describe("fuzzTable", () => {
  it("lists each property in name order with its cases, time, result and seed", () => {
    const table = fuzzTable([
      report({ property: "web: parse", cases: 100000, durationMs: 61234 }),
      report({ property: "service: routes", failure: "boom", seed: -7 }),
    ]).split("\n");
    expect(table[0]).toBe(
      "| Property | Cases | Time | Result | Answers | Seed |",
    );
    expect(table[2]).toBe(
      "| service: routes | 1,000 | 2.5 s | FAILED |  | -7 |",
    );
    expect(table[3]).toBe("| web: parse | 100,000 | 61.2 s | passed |  | 42 |");
  });

  it("shows the most frequent answers first, the rest as a count, with pipes escaped", () => {
    const [, , row] = fuzzTable([
      report({
        interrupted: true,
        outcomes: { "400 A|B": 5, "404": 900, "413": 50, "421": 20, "403": 25 },
      }),
    ]).split("\n");
    expect(row).toContain("passed (cut short by the time limit)");
    expect(row).toContain("404 ×900; 413 ×50; 403 ×25; 421 ×20; 1 more kinds");
    expect(fuzzTable([report({ outcomes: { "a|b": 1 } })])).toContain(
      "a\\|b ×1",
    );
  });
});
