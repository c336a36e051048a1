import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { rowInSentence, rowName, rowNumber, rowsWords } from "./row-words.ts";

describe("row words", () => {
  it("write a row's number as the app's other numbers, with the thousands separator", () => {
    expect([1980, 2000, 100_000, 7].map(rowName)).toEqual([
      "Row 1,980",
      "Row 2,000",
      "Row 100,000",
      "Row 7",
    ]);
    expect(rowInSentence(2000)).toBe("row 2,000");
    expect(rowNumber(1980)).toBe("1,980");
  });

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
});

/** The fleet pages' and the fleet engine's source files, tests and row-words.ts itself aside. */
function sources(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter(
      (path) =>
        /\.tsx?$/.test(path) &&
        !/\.test\.tsx?$/.test(path) &&
        !path.endsWith("row-words.ts"),
    )
    .map((path) => join(root, path));
}

describe("every row the fleet pages name", () => {
  it('is named through row-words.ts: no "Row ${…}" or "Row {…}" of its own, which wrote "Row 1980" beside "Row 2,000"', () => {
    const roots = [
      resolve(import.meta.dirname, ".."),
      resolve(import.meta.dirname, "../../../../../fleet/src"),
    ];
    const ownWords = roots.flatMap(sources).flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((text, index) =>
          /\b[Rr]ow (\$\{|\{)/.test(text)
            ? [
                `${relative(resolve(import.meta.dirname, "../../../../.."), file)}:${index + 1}: ${text.trim()}`,
              ]
            : [],
        ),
    );
    expect(ownWords).toEqual([]);
  });
});
