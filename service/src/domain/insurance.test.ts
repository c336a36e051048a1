import type { Policy } from "@vics/shared";
import { describe, expect, it } from "vitest";
import { coversDate, insuranceStatus } from "./insurance.ts";

const TODAY = "2026-03-10";

function policy(number: string, validFrom: string, validTo: string): Policy {
  return {
    number,
    insurer: "Acorn Mutual",
    validFrom,
    validTo,
    type: "Comprehensive",
  };
}

describe("coversDate", () => {
  it.each([
    ["starts today", "2026-03-10", "2027-03-09", true],
    ["ends today", "2025-03-11", "2026-03-10", true],
    ["ended yesterday", "2025-03-10", "2026-03-09", false],
    ["starts tomorrow", "2026-03-11", "2027-03-10", false],
    ["one-day policy today", "2026-03-10", "2026-03-10", true],
  ])(
    "a policy that %s covers today: %s",
    (_label, validFrom, validTo, covers) => {
      expect(coversDate(policy("P", validFrom, validTo), TODAY)).toBe(covers);
    },
  );
});

describe("insuranceStatus", () => {
  const lapsedLongAgo = policy("OLD", "2023-01-01", "2023-12-31");
  const lapsedRecently = policy("RECENT", "2025-02-18", "2026-02-18");
  const current = policy("NOW", "2026-02-19", "2027-02-18");
  const endsToday = policy("ENDS", "2025-03-11", "2026-03-10");
  const future = policy("NEXT", "2026-04-01", "2027-03-31");

  it.each([
    ["never insured", [], false, null],
    ["current policy", [lapsedRecently, current], true, "NOW"],
    ["policy ending today still covers", [endsToday], true, "ENDS"],
    [
      "lapsed: most recent lapsed policy shown",
      [lapsedLongAgo, lapsedRecently],
      false,
      "RECENT",
    ],
    [
      "lapsed, order does not matter",
      [lapsedRecently, lapsedLongAgo],
      false,
      "RECENT",
    ],
    [
      "only a future policy: not insured, nothing lapsed",
      [future],
      false,
      null,
    ],
    [
      "lapsed with a future renewal shows the lapsed one",
      [lapsedRecently, future],
      false,
      "RECENT",
    ],
    [
      "overlapping current policies: the one ending last",
      [endsToday, current],
      true,
      "NOW",
    ],
    [
      "current policies ending the same day: the first listed",
      [current, policy("TWIN", "2026-03-01", "2027-02-18")],
      true,
      "NOW",
    ],
    [
      "lapsed policies ending the same day: the first listed",
      [lapsedRecently, policy("TWIN", "2025-06-01", "2026-02-18"), future],
      false,
      "RECENT",
    ],
  ] as const)("%s", (_label, policies, insured, number) => {
    const status = insuranceStatus(policies, TODAY);
    expect(status.insured).toBe(insured);
    expect(status.policy?.number ?? null).toBe(number);
  });
});
