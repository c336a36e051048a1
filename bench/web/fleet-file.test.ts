import { isValidRegistration, normaliseRegistration } from "@vics/shared";
import { describe, expect, it } from "vitest";
import { fleetFile, madeUpPlates } from "./fleet-file.ts";

/** What the app's review would count, by the contract's own rules. */
function review(csv: string) {
  const [header, ...lines] = csv.trimEnd().split("\r\n");
  const seen = new Set<string>();
  let invalid = 0;
  let duplicates = 0;
  for (const line of lines) {
    const cell = line.split(",")[1] ?? "";
    if (!isValidRegistration(cell)) invalid++;
    else if (seen.has(normaliseRegistration(cell))) duplicates++;
    else seen.add(normaliseRegistration(cell));
  }
  return { header, rows: lines.length, unique: seen.size, duplicates, invalid };
}

const plates = (count: number) => madeUpPlates(count, new Set());

describe("fleetFile", () => {
  it("writes the rows asked for, and says what the review must count", () => {
    const file = fleetFile(plates(20_000), 10_000);
    expect(file.expected).toEqual({
      rows: 10_000,
      unique: 9_895,
      duplicates: 100,
      invalid: 5,
    });
    const counted = review(file.csv);
    expect(counted.header).toBe("Fleet number,Registration,Make,Depot");
    expect(counted).toMatchObject(file.expected);
    expect(file.registrationColumn).toBe(1);
    expect(file.madeUp).toBe(0);
  });

  it("tops up with made-up plates, not in the database, when it holds too few", () => {
    const real = plates(1_000).slice(500);
    const file = fleetFile(real, 2_000);
    expect(file.madeUp).toBe(file.expected.unique - 500);
    expect(review(file.csv)).toMatchObject(file.expected);
  });

  it("is the same file every time", () => {
    expect(fleetFile(plates(100), 100).csv).toBe(
      fleetFile(plates(100), 100).csv,
    );
  });
});

describe("madeUpPlates", () => {
  it("makes valid, distinct plates, skipping the ones taken", () => {
    const made = madeUpPlates(1_000, new Set(["ZZ00AAA", "ZZ01AAA"]));
    expect(made).toHaveLength(1_000);
    expect(new Set(made).size).toBe(1_000);
    expect(made.every((plate) => isValidRegistration(plate))).toBe(true);
    expect(made).not.toContain("ZZ00AAA");
  });
});
