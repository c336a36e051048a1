import { describe, expect, it } from "vitest";
import { invalidRowsHeading, rowsLeftWords } from "./review-words.ts";

describe("review words", () => {
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
