import { describe, expect, it } from "vitest";
import { percentile } from "./percentile.ts";

describe("percentile (nearest rank)", () => {
  it.each([
    { values: [5], p: 50, expected: 5 },
    { values: [3, 1, 2], p: 50, expected: 2 },
    { values: [4, 1, 3, 2], p: 50, expected: 2 },
    { values: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], p: 90, expected: 9 },
    { values: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], p: 99, expected: 10 },
    { values: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], p: 100, expected: 10 },
    { values: [10, 20], p: 1, expected: 10 },
  ])("p$p of $values is $expected", ({ values, p, expected }) => {
    expect(percentile(values, p)).toBe(expected);
  });

  it("is NaN for no values, and leaves its input unsorted", () => {
    expect(percentile([], 50)).toBeNaN();
    const values = [3, 1, 2];
    expect(percentile(values, 50)).toBe(2);
    expect(values).toEqual([3, 1, 2]);
  });
});
