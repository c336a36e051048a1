import { describe, expect, it } from "vitest";
import { ENGINE_FIGURES } from "./engines.ts";
import { SERVER_FIGURES } from "./report.ts";

describe("the engines' figures", () => {
  it("are each a row of the table", () => {
    const rows = new Set(SERVER_FIGURES.map(({ key }) => key));
    for (const key of ENGINE_FIGURES) expect(rows).toContain(key);
  });
});
