import { describe, expect, it } from "vitest";
import { overRounds, roundOrder } from "./rounds.ts";

describe("overRounds", () => {
  it("is the median round with the fastest and the slowest", () => {
    expect(overRounds([30, 10, 20])).toEqual({
      median: 20,
      fastest: 10,
      slowest: 30,
    });
  });

  it("refuses no rounds at all", () => {
    expect(() => overRounds([])).toThrow("no rounds");
  });
});

describe("roundOrder", () => {
  it("swaps the order every other round", () => {
    const engines = ["sqlite", "postgres"];
    expect([0, 1, 2].map((round) => roundOrder(engines, round))).toEqual([
      ["sqlite", "postgres"],
      ["postgres", "sqlite"],
      ["sqlite", "postgres"],
    ]);
    expect(engines).toEqual(["sqlite", "postgres"]);
  });
});
