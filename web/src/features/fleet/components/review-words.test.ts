import { describe, expect, it } from "vitest";
import {
  invalidRowsHeading,
  rowsLeftWords,
  rowsWords,
} from "./review-words.ts";

describe("review words", () => {
  it.each([
    [[4, 17], "rows 4 and 17"],
    [[4, 17, 230], "rows 4, 17 and 230"],
    [[1200, 3400], "rows 1,200 and 3,400"],
    [
      Array.from({ length: 500 }, (_, index) => index + 1),
      "rows 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 490 more",
    ],
  ])("names the rows %j as %s", (lines, words) => {
    expect(rowsWords(lines)).toBe(words);
  });

  it("counts invalid rows to fix and excluded, leaving out a zero", () => {
    expect(invalidRowsHeading(1, 3)).toBe(
      "Rows with an invalid registration: 1 to fix, 3 excluded",
    );
    expect(invalidRowsHeading(4, 0)).toBe(
      "Rows with an invalid registration: 4 to fix",
    );
    expect(invalidRowsHeading(0, 2)).toBe(
      "Rows with an invalid registration: 2 excluded",
    );
  });

  it("says how many rows are left to fix after one is fixed", () => {
    expect(rowsLeftWords(2, false)).toBe("2 rows left to fix.");
    expect(rowsLeftWords(1, false)).toBe("1 row left to fix.");
    expect(rowsLeftWords(0, false)).toBe("No rows left to fix.");
    expect(rowsLeftWords(0, true)).toBe(
      "All rows now have a valid registration.",
    );
  });
});
