import { describe, expect, it } from "vitest";
import { areaWords } from "./timeline-words.ts";

describe("a timeline's insurance words", () => {
  const policy = {
    number: "P-1",
    insurer: "Acme",
    validFrom: "2025-11-24",
    validTo: "2026-11-23",
  };
  it("names the policy that ended, says 'no policy on record' only when none ever was, and claims neither when not told", () => {
    expect(
      areaWords("insurance", { status: "not-insured", lastPolicy: policy }),
    ).toBe("Not insured: policy P-1 ended 23 November 2026");
    expect(
      areaWords("insurance", { status: "not-insured", lastPolicy: null }),
    ).toBe("Not insured: no policy on record");
    expect(areaWords("insurance", { status: "not-insured" })).toBe(
      "Not insured",
    );
  });
});
