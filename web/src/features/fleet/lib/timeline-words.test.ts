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

describe("a change of a fact whose source changed too", () => {
  const imported = { status: "taxed", dueDate: "2027-03-01" };
  const fromDvla = { status: "sorn", dueDate: null, source: "dvla-ves" };

  it("says where each side came from when the value changed with its source", () => {
    expect(areaWords("tax", imported, "before", fromDvla)).toBe(
      "Taxed until 1 March 2027 (VICS records)",
    );
    expect(areaWords("tax", fromDvla, "after", imported)).toBe(
      "Declared off the road (SORN) (DVLA)",
    );
  });

  it("says nothing of the source when both sides came from the same place", () => {
    expect(
      areaWords(
        "mot",
        { status: "valid", expiry: "2027-02-19", source: "dvsa-mot-history" },
        "after",
        { status: "expired", expiry: "2026-02-19", source: "dvsa-mot-history" },
      ),
    ).toBe("MOT valid until 19 February 2027");
    expect(
      areaWords("tax", imported, "after", { status: "untaxed", dueDate: null }),
    ).toBe("Taxed until 1 March 2027");
  });
});
