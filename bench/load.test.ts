import { expect, it } from "vitest";
import { randomPick } from "./load.ts";

it("randomPick draws each registration from the sample, and not always the same", () => {
  const sample = ["AB12CDE", "XY34ZZZ", "LM56NOP"];
  const pick = randomPick(sample);
  const drawn = Array.from({ length: 300 }, () => pick());
  expect(
    drawn.filter((registration) => !sample.includes(registration)),
  ).toEqual([]);
  // 300 draws of three all alike: a chance of about one in 10^142.
  expect(new Set(drawn).size).toBeGreaterThan(1);
});
