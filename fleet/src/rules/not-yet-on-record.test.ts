import { describe, expect, it } from "vitest";
import { notYetOnRecord, recordDeadline } from "./not-yet-on-record.ts";

describe("recordDeadline", () => {
  it.each([
    ["2026-11-20", "2026-12-04"],
    // Across a month's and a year's end, and 29 February of a leap year.
    ["2026-12-25", "2027-01-08"],
    ["2028-02-20", "2028-03-05"],
    ["2027-02-20", "2027-03-06"],
  ])("first registered %s: the insurer has until %s", (first, deadline) => {
    expect(recordDeadline(first)).toBe(deadline);
  });
});

describe("notYetOnRecord", () => {
  const never = (firstRegistered: string) => ({
    lastPolicy: null,
    vehicle: {
      make: "Ford",
      model: "Focus",
      year: 2026,
      color: "Blue",
      firstRegistered,
    },
  });
  it("holds from the day of first registration to the deadline, not a day after", () => {
    expect(notYetOnRecord(never("2026-11-20"), "2026-11-20")).toBe(true);
    expect(
      notYetOnRecord(never("2026-11-20"), recordDeadline("2026-11-20")),
    ).toBe(true);
    expect(notYetOnRecord(never("2026-11-20"), "2026-12-05")).toBe(false);
    expect(notYetOnRecord(never("2026-11-20"), "2026-11-19")).toBe(false);
  });
});
