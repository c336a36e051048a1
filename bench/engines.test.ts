import { describe, expect, it } from "vitest";
import { ENGINE_FIGURES, roundOrder } from "./engines.ts";
import { SERVER_FIGURES } from "./report.ts";

describe("roundOrder", () => {
  it("swaps the engines' order every other round", () => {
    const engines = ["sqlite", "postgres"];
    expect([0, 1, 2].map((round) => roundOrder(engines, round))).toEqual([
      ["sqlite", "postgres"],
      ["postgres", "sqlite"],
      ["sqlite", "postgres"],
    ]);
    expect(engines).toEqual(["sqlite", "postgres"]);
  });
});

describe("the engines' figures", () => {
  it("are each a row of the table", () => {
    const rows = new Set(SERVER_FIGURES.map(({ key }) => key));
    for (const key of ENGINE_FIGURES) expect(rows).toContain(key);
  });
});
