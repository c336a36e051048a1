import { describe, expect, it } from "vitest";
import { count } from "./count.ts";

describe("count", () => {
  it("groups thousands with commas, whatever the browser's language", () => {
    expect(count(500000)).toBe("500,000");
    expect(count(0)).toBe("0");
  });
});
